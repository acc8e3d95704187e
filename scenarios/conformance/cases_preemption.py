# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: DefaultPreemption, kube-scheduler's PostFilter (victim selection, the choice of
node, PodDisruptionBudgets, preemptionPolicy, nominated pods, DRA). Expectations come from upstream's
rules: pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (SelectVictimsOnNode,
filterPodsWithPDBViolation, PodEligibleToPreemptOthers), pkg/scheduler/framework/preemption
(DryRunPreemption, pickOneNodeForPreemption) and framework.RunFilterPluginsWithNominatedPods; case
descriptions name the upstream unit test (default_preemption_test.go) a case follows."""

# Upstream's test priorities and requests (default_preemption_test.go): nodes hold veryLargeRes.
PRIO = {"neg": -100, "low": 0, "mid": 100, "high": 1000, "very-high": 10000}
RES = {"small": ("100m", "100Mi"), "medium": ("200m", "200Mi"), "large": ("300m", "300Mi"),
       "very-large": ("500m", "500Mi")}


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})

    def prio_class(name, never=False):
        o = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
             "value": PRIO[name]}
        if never:
            o["preemptionPolicy"] = "Never"
        return o

    classes = [prio_class(n) for n in PRIO]

    def p(name, prio, size=None, on=None, start=0, labels=None, **kw):
        """A pod of priority class `prio`; bound to `on` (started `start` seconds after the epoch
        of the cases) or pending."""
        if size:
            kw["cpu"], kw["memory"] = RES[size]
        o = pod(name, node_name=on, **kw)
        if labels:
            o["metadata"]["labels"] = labels
        o["spec"]["priorityClassName"] = prio
        if on:
            o["status"] = {"startTime": "2025-01-01T00:00:%02dZ" % start}
        return o

    def nodes(*names, pods="110"):
        return [node(n, cpu="500m", memory="500Mi", pods=pods) for n in names]

    def pdb(name, min_available, labels, disrupted=()):
        o = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
             "metadata": {"name": name, "namespace": "default"},
             "spec": {"minAvailable": min_available, "selector": {"matchLabels": labels}}}
        if disrupted:
            o["status"] = {"disruptedPods": {n: "2025-01-01T00:00:00Z" for n in disrupted}}
        return o

    def pcase(name, what, objects, expect):
        case("preempt-" + name, "DefaultPreemption: " + what, classes + objects, expect)

    # ---- eligibility (PodEligibleToPreemptOthers, TestPostFilter) ----
    pcase("basic", "victims on the node whose most important victim matters least "
          "(TestPreempt \"basic preemption logic\")",
          nodes("node1", "node2", "node3")
          + [p("p1.1", "low", "small", "node1"), p("p1.2", "low", "small", "node1"),
             p("p2.1", "high", "large", "node2"), p("p3.1", "mid", "medium", "node3"),
             p("p", "high", "very-large")],
          ["pod p nominated node1", "victims p1.1,p1.2", "pod p1.1 node node1"])
    pcase("tied-priority", "a pod of equal priority is no victim "
          "(TestPostFilter \"pod with tied priority is still unschedulable\")",
          nodes("node1", pods="1") + [p("p1", "low", on="node1"), p("p", "low")],
          ["pod p nominated -", "victims -"])
    pcase("one-node", "only the node with a lower-priority pod is a candidate "
          "(TestPostFilter \"pod can be made schedulable on one node\")",
          nodes("node1", "node2", pods="1")
          + [p("p1", "high", on="node1"), p("p2", "low", on="node2"), p("p", "mid")],
          ["pod p nominated node2", "victims p2"])
    pcase("not-enough-after-removal", "no candidate when even without every lower-priority pod the "
          "pod does not fit (TestPostFilter \"no candidate nodes found, no enough resource after "
          "removing low priority pods\")",
          [node("node1", cpu="200m", memory="400Mi"), node("node2", cpu="200m", memory="400Mi")]
          + [p("p1", "low", on="node1"), p("p2", "low", on="node2"), p("p", "high", "large")],
          ["pod p nominated -", "victims -"])
    never = prio_class("high", never=True)
    case("preempt-policy-never", "DefaultPreemption: preemptionPolicy Never does not preempt "
         "(TestPodEligibleToPreemptOthers \"Pod with 'PreemptNever' preemption policy\")",
         [c for c in classes if c["metadata"]["name"] != "high"] + [never]
         + nodes("node1", pods="1") + [p("p1", "low", on="node1"), p("p", "high")],
         ["pod p nominated -", "victims -", "pod p1 node node1"])

    # ---- SelectVictimsOnNode: the reprieve, most important first (TestDryRunPreemption) ----
    pcase("reprieve-small-low", "the medium-priority pod is preempted, the small low-priority one "
          "is reprieved (TestDryRunPreemption \"medium priority pod is preempted, but lower priority "
          "one stays as it is small\"); node1's victim started last",
          nodes("node1", "node2")
          + [p("p1.1", "low", "small", "node1", 0), p("p1.2", "mid", "large", "node1", 2),
             p("p2", "mid", "large", "node2", 1), p("p", "high", "large")],
          ["pod p nominated node1", "victims p1.2"])
    pcase("reprieve-mixed", "pods of equal priority stay; of the lower ones the most important "
          "go back first (TestDryRunPreemption \"mixed priority pods are preempted\")",
          nodes("node1", "node2")
          + [p("p1.1", "mid", "small", "node1"), p("p1.2", "low", "small", "node1"),
             p("p1.3", "mid", "medium", "node1"), p("p1.4", "high", "small", "node1"),
             p("p2", "high", "large", "node2"), p("p", "high", "large")],
          ["pod p nominated node1", "victims p1.2,p1.3"])
    pcase("reprieve-earlier-start", "of equal priority, the pod that started earlier goes back "
          "first (TestDryRunPreemption \"mixed priority pods are preempted, pick later StartTime one "
          "when priorities are equal\")",
          nodes("node1", "node2")
          + [p("p1.1", "low", "small", "node1", 5), p("p1.2", "low", "small", "node1", 4),
             p("p1.3", "mid", "medium", "node1", 3), p("p1.4", "high", "small", "node1", 2),
             p("p2", "high", "large", "node2", 1), p("p", "high", "large")],
          ["pod p nominated node1", "victims p1.1,p1.3"])
    pcase("reprieve-most-important", "without budgets the more important of two pods is reprieved "
          "(SelectVictimsOnNode sorts by util.MoreImportantPod)",
          nodes("node1")
          + [p("v1", "low", "medium", "node1", labels={"app": "foo"}), p("v2", "mid", "medium", "node1"),
             p("p", "high", "large")],
          ["pod p nominated node1", "victims v1"])

    # ---- PodDisruptionBudgets (filterPodsWithPDBViolation) ----
    pcase("pdb-violating-reprieved-first", "a pod whose eviction would violate a budget is "
          "reprieved before a more important one that would not (SelectVictimsOnNode: violating "
          "victims first)",
          nodes("node1")
          + [p("v1", "low", "medium", "node1", labels={"app": "foo"}), p("v2", "mid", "medium", "node1"),
             p("p", "high", "large"), pdb("foo", 1, {"app": "foo"})],
          ["pod p nominated node1", "victims v2"])
    pcase("pdb-same-budget", "two victims of one budget that allows one disruption are both evicted "
          "(TestDryRunPreemption \"preemption with violation of same pdb\")",
          nodes("node1")
          + [p("p1.1", "mid", "medium", "node1", labels={"app": "foo"}),
             p("p1.2", "mid", "medium", "node1", labels={"app": "foo"}),
             p("p", "high", "very-large"), pdb("foo", 1, {"app": "foo"})],
          ["pod p nominated node1", "victims p1.1,p1.2"])
    pcase("pdb-fewest-violations", "the node with fewer budget violations wins over one whose "
          "victim matters less (pickOneNodeForPreemption, first criterion; TestPostFilter \"pod can "
          "be made schedulable on minHighestPriority node\")",
          nodes("node1", "node2")
          + [p("v1", "low", "large", "node1", labels={"app": "foo"}), p("v2", "mid", "large", "node2"),
             p("p", "high", "large"), pdb("foo", 1, {"app": "foo"})],
          ["pod p nominated node2", "victims v2"])
    pcase("pdb-min-highest-priority", "among nodes with equal violations, the one whose most "
          "important victim matters least (TestPostFilter \"pod can be made schedulable on "
          "minHighestPriority node\")",
          nodes("node1", "node2", pods="1")
          + [p("p1", "high", on="node1", labels={"pdb": "non-violating"}),
             p("p2", "low", on="node1", labels={"pdb": "violating"}),
             p("p3", "mid", on="node2", labels={"pdb": "violating"}),
             p("p", "very-high"),
             pdb("violating", 2, {"pdb": "violating"}), pdb("non-violating", 0, {"pdb": "non-violating"})],
          ["pod p nominated node2", "victims p3"])

    # ---- pickOneNodeForPreemption's criteria, in order (TestSelectBestCandidate) ----
    pcase("pick-min-highest-priority", "the node whose most important victim has the lowest "
          "priority (TestSelectBestCandidate \"node with min highest priority pod is picked\")",
          nodes("node1", "node2", "node3")
          + [p("p1.1", "mid", "medium", "node1"), p("p1.2", "mid", "large", "node1"),
             p("p2.1", "mid", "medium", "node2"), p("p2.2", "low", "medium", "node2"),
             p("p3.1", "low", "medium", "node3"), p("p3.2", "low", "medium", "node3"),
             p("p", "high", "very-large")],
          ["pod p nominated node3", "victims p3.1,p3.2"])
    pcase("pick-min-priority-sum", "with equal highest priorities, the smallest sum of priorities "
          "(TestSelectBestCandidate \"when highest priorities are the same, minimum sum of "
          "priorities is picked\")",
          nodes("node1", "node2", "node3")
          + [p("p1.1", "mid", "medium", "node1"), p("p1.2", "mid", "large", "node1"),
             p("p2.1", "mid", "large", "node2"), p("p2.2", "low", "medium", "node2"),
             p("p3.1", "mid", "medium", "node3"), p("p3.2", "mid", "medium", "node3"),
             p("p", "high", "very-large")],
          ["pod p nominated node2", "victims p2.1,p2.2"])
    pcase("pick-fewest-victims", "with equal highest priority, the shifted sum counts victims: the "
          "node with fewer wins (TestSelectBestCandidate \"when highest priority and sum are the "
          "same, minimum number of pods is picked\")",
          nodes("node1", "node2", "node3")
          + [p("p1.1", "mid", "small", "node1"), p("p1.2", "neg", "small", "node1"),
             p("p1.3", "mid", "small", "node1"), p("p1.4", "neg", "small", "node1"),
             p("p2.1", "mid", "large", "node2"), p("p2.2", "neg", "medium", "node2"),
             p("p3.1", "mid", "medium", "node3"), p("p3.2", "neg", "small", "node3"),
             p("p3.3", "low", "small", "node3"), p("p", "high", "very-large")],
          ["pod p nominated node2", "victims p2.1,p2.2"])
    pcase("pick-adjusted-sum", "priorities are shifted by 2^31 before summing, so negative "
          "priorities do not favour more victims (TestSelectBestCandidate \"sum of adjusted "
          "priorities is considered\")",
          nodes("node1", "node2", "node3")
          + [p("p1.1", "mid", "small", "node1"), p("p1.2", "neg", "small", "node1"),
             p("p1.3", "neg", "small", "node1"),
             p("p2.1", "mid", "large", "node2"), p("p2.2", "neg", "medium", "node2"),
             p("p3.1", "mid", "medium", "node3"), p("p3.2", "neg", "small", "node3"),
             p("p3.3", "low", "small", "node3"), p("p", "high", "very-large")],
          ["pod p nominated node2", "victims p2.1,p2.2"])
    pcase("pick-non-overlapping", "the first criterion that differs decides (TestSelectBestCandidate "
          "\"non-overlapping lowest high priority, sum priorities, and number of pods\")",
          nodes("node1", "node2", "node3", "node4")
          + [p("p1.1", "mid", "small", "node1"), p("p1.2", "low", "small", "node1"),
             p("p1.3", "low", "small", "node1"), p("p2.1", "high", "large", "node2"),
             p("p3.1", "mid", "medium", "node3"), p("p3.2", "low", "small", "node3"),
             p("p3.3", "low", "small", "node3"), p("p3.4", "low", "medium", "node3"),
             p("p4.1", "mid", "medium", "node4"), p("p4.2", "mid", "small", "node4"),
             p("p4.3", "mid", "small", "node4"), p("p4.4", "neg", "small", "node4"),
             p("p", "very-high", "very-large")],
          ["pod p nominated node1", "victims p1.1,p1.2,p1.3"])
    pcase("pick-latest-start", "with equal priorities and counts, the node whose victims started "
          "last (TestSelectBestCandidate \"same priority, same number of victims, different start "
          "time for each node's pod\")",
          nodes("node1", "node2", "node3")
          + [p("p1.1", "mid", "medium", "node1", 2), p("p1.2", "mid", "medium", "node1", 2),
             p("p2.1", "mid", "medium", "node2", 3), p("p2.2", "mid", "medium", "node2", 3),
             p("p3.1", "mid", "medium", "node3", 1), p("p3.2", "mid", "medium", "node3", 1),
             p("p", "high", "very-large")],
          ["pod p nominated node2", "victims p2.1,p2.2"])
    pcase("pick-latest-earliest-start", "the earliest start among a node's victims is compared "
          "(TestSelectBestCandidate \"same priority, same number of victims, different start time "
          "for all pods\")",
          nodes("node1", "node2", "node3")
          + [p("p1.1", "mid", "medium", "node1", 4), p("p1.2", "mid", "medium", "node1", 2),
             p("p2.1", "mid", "medium", "node2", 5), p("p2.2", "mid", "medium", "node2", 1),
             p("p3.1", "mid", "medium", "node3", 3), p("p3.2", "mid", "medium", "node3", 6),
             p("p", "high", "very-large")],
          ["pod p nominated node3", "victims p3.1,p3.2"])
    pcase("pick-start-of-highest-victims", "only the start of the highest-priority victims counts "
          "(TestSelectBestCandidate \"different priority, same number of victims, different start "
          "time for all pods\")",
          nodes("node1", "node2", "node3")
          + [p("p1.1", "low", "medium", "node1", 4), p("p1.2", "mid", "medium", "node1", 2),
             p("p2.1", "mid", "medium", "node2", 6), p("p2.2", "low", "medium", "node2", 1),
             p("p3.1", "low", "medium", "node3", 3), p("p3.2", "mid", "medium", "node3", 5),
             p("p", "high", "very-large")],
          ["pod p nominated node2", "victims p2.1,p2.2"])

    # ---- nominated pods (RunFilterPluginsWithNominatedPods: nominated pods of priority >= the
    # pod's count on their node) ----
    def nominated_case(name, what, prio, expect):
        pcase(name, what,
              [node("node1", cpu="8", memory="32Gi")]
              + [p("v", "low", on="node1", cpu="4"), p("p", "high", cpu="6"), p("q", prio, cpu="4")],
              ["pod p nominated node1", "victims v"] + expect)

    nominated_case("nominated-lower-waits", "a lower-priority pod does not take the room freed for "
                   "a nominated pod, and cannot preempt for it", "mid",
                   ["pod q nominated -"])
    nominated_case("nominated-equal-waits", "a pod of the nominated pod's priority counts it on its "
                   "node too (priority >= the pod's)", "high",
                   ["pod q nominated -"])
    nominated_case("nominated-higher-takes", "a higher-priority pod does not see the nomination and "
                   "takes the free room", "very-high",
                   ["pod q node node1"])

    # ---- DRA (Kubernetes up to 1.37: the dry run keeps a victim's claims allocated) ----
    pcase("dra-no-preemption", "a pod pending for DRA devices does not preempt: DynamicResources "
          "rejects the node as unresolvable (Kubernetes 1.37; KEP-5690 would change this)",
          [node("node-a"), GPU_CLASS, gpus("node-a", 1), ONE_GPU,
           p("v", "low", templates=[("gpu", "one-gpu")]), p("p", "high", templates=[("gpu", "one-gpu")])],
          ["pod v node node-a", "claim v-gpu devices gpu=node-a/gpu-0", "pod p nominated -", "victims -"])
    pcase("device-plugin-preempts", "a device-plugin GPU (an extended resource) is freed by "
          "preemption, unlike a DRA device",
          [node("node-a", extra={"nvidia.com/gpu": "1"}),
           p("v", "low", on="node-a", extended={"nvidia.com/gpu": "1"}),
           p("p", "high", extended={"nvidia.com/gpu": "1"})],
          ["pod p nominated node-a", "victims v"])
