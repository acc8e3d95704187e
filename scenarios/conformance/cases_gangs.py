# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: PodGroups as kube-scheduler 1.36 and 1.37 schedule them (gang and basic
policies, the group cycle, workload-aware preemption, topology-aware placement), per version. The
cases and their expectations are the test cases of the workload-scheduling notes (section 8), each
from upstream's documentation: concepts/workloads/podgroup-api, workload-api/policies,
scheduling-eviction/workload-aware-preemption and topology-aware-scheduling, and KEP-5710's
algorithm. Where upstream breaks ties at random, drasim breaks them by node name, and the cases
say which node only where that rule (or a constraint) decides it."""

GATES_137 = "GenericWorkload=true"
GATES_136 = "GenericWorkload=true,GangScheduling=true"


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})

    def prio_class(name, value):
        return {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
                "value": value}

    classes = [prio_class("batch", 100), prio_class("training", 1000), prio_class("inference", 2000)]

    def group(name, min_count=None, prio=None, disruption=None, topology=None, version="v1beta1"):
        """A PodGroup: gang with `min_count`, basic without; `disruption` "all" or "single"."""
        spec = {"schedulingPolicy": {"gang": {"minCount": min_count}} if min_count else {"basic": {}}}
        if topology:
            spec["schedulingConstraints"] = {"topology": [{"key": topology}]}
        if disruption:
            if version == "v1alpha2":
                spec["disruptionMode"] = "PodGroup" if disruption == "all" else "Pod"
            else:
                spec["disruptionMode"] = {disruption: {}}
        if prio:
            spec["priorityClassName"] = prio
        return {"apiVersion": "scheduling.k8s.io/" + version, "kind": "PodGroup",
                "metadata": {"name": name, "namespace": "default"}, "spec": spec}

    def member(name, grp, cpu="1", prio=None, on=None, selector=None, templates=()):
        o = pod(name, cpu=cpu, node_name=on, selector=selector, templates=templates)
        o["spec"]["schedulingGroup"] = {"podGroupName": grp}
        if prio:
            o["spec"]["priorityClassName"] = prio
        return o

    def solo(name, cpu="1", prio=None, on=None):
        o = pod(name, cpu=cpu, node_name=on)
        if prio:
            o["spec"]["priorityClassName"] = prio
        return o

    def slots(*names, cpu="1", labels=None):
        return [node(n, labels=labels, cpu=cpu) for n in names]

    def gcase(name, what, objects, expect, version="1.37", gates=None):
        case("gang-" + name, "PodGroup, " + version + ": " + what, objects, expect, version=version,
             gates=gates or (GATES_137 if version == "1.37" else GATES_136))

    # ---- all or nothing (podgroup-scheduling) ----
    gcase("short-of-devices", "a gang of four pods of one GPU each on a cluster with three free GPUs "
          "binds nothing, and its condition says the cycle failed",
          [GPU_CLASS, ONE_GPU] + slots("n1", "n2", cpu="8") + [gpus("n1", 2), gpus("n2", 1),
           group("train", 4)]
          + [member("w-%d" % i, "train", templates=[("gpu", "one-gpu")]) for i in range(4)],
          ["pod w-%d pending-contains minCount (4) cannot be satisfied" % i for i in range(4)]
          + ["group train False"])

    gcase("more-than-min-count", "a gang of minCount 3 with five pods and room for four binds four in "
          "one cycle; the fifth stays pending",
          slots("n1", "n2", cpu="2") + [group("train", 3)] + [member("w-%d" % i, "train") for i in range(5)],
          ["pod w-%d bound" % i for i in range(4)] + ["pod w-4 pending-contains 0/2 nodes are available",
                                                      "group train True"])

    for version in ("1.37", "1.36"):
        v = "v1beta1" if version == "1.37" else "v1alpha2"
        gcase("basic-partial-" + version.replace(".", "-"), "a basic PodGroup of five pods with room for three binds three; "
              "no all-or-nothing",
              slots("n1", cpu="3") + [group("svc", version=v)] + [member("s-%d" % i, "svc") for i in range(5)],
              ["pod s-0 node n1", "pod s-1 node n1", "pod s-2 node n1",
               "pod s-3 pending-contains Insufficient cpu", "pod s-4 pending-contains Insufficient cpu"],
              version=version)

    gcase("two-gangs-six-slots", "two gangs of minCount 4 created together on six free slots: the "
          "first in input order binds all four, the other none (no partial deadlock)",
          slots("n1", "n2", "n3", cpu="2") + [group("a", 4), group("b", 4)]
          + [member("a-%d" % i, "a") for i in range(4)] + [member("b-%d" % i, "b") for i in range(4)],
          ["pod a-%d bound" % i for i in range(4)]
          + ["pod b-%d pending-contains minCount (4) cannot be satisfied" % i for i in range(4)]
          + ["group a True", "group b False"])

    # ---- workload-aware preemption (KEP-5710) ----
    gcase("wap-not-enough", "workload-aware preemption that could free only one of the two slots a "
          "gang needs evicts nobody",
          classes + slots("n1", "n2") + [solo("a", prio="batch", on="n1"), solo("b", prio="inference", on="n2"),
                                         group("g", 2, prio="training")]
          + [member("g-%d" % i, "g", prio="training") for i in range(2)],
          ["victims -", "pod g-0 nominated -", "pod g-1 nominated -", "group g False"])

    gcase("wap-reprieve", "workload-aware preemption evicts the two lower-priority pods on the nodes the "
          "gang can use and reprieves the third; the members are nominated to the freed nodes",
          classes + slots("n1", "n2", labels={"pool": "x"}) + slots("n3")
          + [solo("a", prio="batch", on="n1"), solo("b", prio="batch", on="n2"), solo("c", prio="batch", on="n3"),
             group("g", 2, prio="training")]
          + [member("g-%d" % i, "g", prio="training", selector={"pool": "x"}) for i in range(2)],
          ["victims a,b", "pod g-0 nominated n1", "pod g-1 nominated n2", "group g False"])

    # ---- a pod's DefaultPreemption and a victim group's disruptionMode (1.37 blog) ----
    for version in ("1.37", "1.36"):
        v = "v1beta1" if version == "1.37" else "v1alpha2"
        for mode in ("all", "single"):
            whole = version == "1.37" and mode == "all"
            gcase("pod-preempts-%s-group-%s" % (mode, version.replace(".", "-")),
                  "a pod that needs one slot of a node full of a PodGroup with disruptionMode %s evicts %s"
                  % (mode, "the whole group" if whole else "one member"),
                  classes + slots("n1", cpu="4") + [group("l", 4, prio="batch", disruption=mode, version=v)]
                  + [member("l-%d" % i, "l", prio="batch", on="n1") for i in range(4)]
                  + [solo("p", prio="training")],
                  ["victims " + ("l-0,l-1,l-2,l-3" if whole else "l-3"), "pod p nominated n1"],
                  version=version,
                  # 1.36 serves disruptionMode and a group's priority behind WorkloadAwarePreemption
                  gates=None if version == "1.37" else GATES_136 + ",WorkloadAwarePreemption=true")

    # ---- topology-aware placement (KEP-5732) ----
    racks = (slots("r1-a", "r1-b", "r1-c", labels={"rack": "r1"})
             + slots("r2-a", "r2-b", "r2-c", "r2-d", labels={"rack": "r2"}))
    gcase("topology-one-rack", "a gang of four kept in one rack lands on the rack with four free slots, "
          "not across racks",
          racks + [group("t", 4, topology="rack")] + [member("t-%d" % i, "t") for i in range(4)],
          ["pod t-0 node r2-a", "pod t-1 node r2-b", "pod t-2 node r2-c", "pod t-3 node r2-d", "group t True"],
          gates=GATES_137 + ",TopologyAwareWorkloadScheduling=true")
    gcase("topology-no-rack-fits", "a gang of five kept in one rack stays pending although the cluster "
          "has seven free slots",
          racks + [group("t", 5, topology="rack")] + [member("t-%d" % i, "t") for i in range(5)],
          ["pod t-%d pending-contains 0/2 placements are feasible" % i for i in range(5)] + ["group t False"],
          gates=GATES_137 + ",TopologyAwareWorkloadScheduling=true")
    gcase("topology-gate-off", "without TopologyAwareWorkloadScheduling the API server refuses a "
          "PodGroup's topology constraint where it is written",
          racks + [group("t", 5, topology="rack")] + [member("t-%d" % i, "t") for i in range(5)],
          ["error spec.schedulingConstraints: Forbidden: feature gate TopologyAwareWorkloadScheduling is disabled"])

    # ---- workload-aware preemption under a topology constraint (kubernetes/kubernetes#140683) ----
    # Rack r1: an inference pod (above the gang) and a batch pod, two slots free; rack r2: four
    # batch pods. No rack holds the gang of three as it stands. 1.37's dry run removes every batch
    # pod, places the gang in the best-scored rack (r1: equal pods, r1 is the more packed with the
    # inference pod in it) and reprieves what does not stand in its way: r2's four pods stay.
    # 1.36 refuses preemption for a PodGroup with scheduling constraints.
    def busy_racks(version):
        prio = [solo("x", prio="inference", on="r1-a"), solo("b1", prio="batch", on="r1-b")]
        prio += [solo("b%d" % i, prio="batch", on="r2-" + "abcd"[i - 2]) for i in range(2, 6)]
        return (classes + slots("r1-a", "r1-b", "r1-c", "r1-d", labels={"rack": "r1"})
                + slots("r2-a", "r2-b", "r2-c", "r2-d", labels={"rack": "r2"}) + prio)

    for version in ("1.37", "1.36"):
        v = "v1beta1" if version == "1.37" else "v1alpha2"
        gates = (GATES_137 if version == "1.37" else GATES_136 + ",WorkloadAwarePreemption=true") \
            + ",TopologyAwareWorkloadScheduling=true"
        preempts = version == "1.37"
        gcase("topology-preempts-%s" % version.replace(".", "-"),
              "a gang of three kept in one rack, with no rack free enough, %s"
              % ("evicts the one batch pod of the rack it is placed in and none of the other rack's four"
                 if preempts else "evicts nothing: 1.36 runs no workload-aware preemption under a topology "
                 "constraint"),
              busy_racks(version) + [group("t", 3, prio="training", topology="rack", version=v)]
              + [member("t-%d" % i, "t", prio="training") for i in range(3)],
              (["victims b1", "pod t-0 nominated r1-b", "pod t-1 nominated r1-c", "pod t-2 nominated r1-d"]
               if preempts else ["victims -", "pod t-0 nominated -"])
              + ["group t False"],
              version=version, gates=gates)

    gcase("topology-preempts-nothing-when-no-rack-fits",
          "a gang of five kept in one rack evicts nobody: with every batch pod gone r1 holds three and "
          "r2 four, although the cluster would hold seven",
          busy_racks("1.37") + [group("t", 5, prio="training", topology="rack")]
          + [member("t-%d" % i, "t", prio="training") for i in range(5)],
          ["victims -", "pod t-0 nominated -", "pod t-4 nominated -", "group t False"]
          + ["pod t-%d pending-contains 0/2 placements are feasible" % i for i in range(5)],
          gates=GATES_137 + ",TopologyAwareWorkloadScheduling=true")

    # ---- the API a version serves ----
    gcase("api-not-served-1-35", "Kubernetes 1.35 serves no scheduling.k8s.io/v1beta1: the PodGroup is "
          "refused where it is written",
          slots("n1") + [group("g", 1)] + [member("g-0", "g")],
          ["error scheduling.k8s.io/v1beta1"], version="1.35", gates="GenericWorkload=true")

    # ---- 1.35: no group cycle; members are scheduled one at a time and wait at Permit ----
    # (workload-scheduling notes 2.1 and test case 13; gangscheduling.go at v1.35: PreEnqueue,
    # Reserve, Permit; the workload manager's 5-minute SchedulingTimeout). A one-shot run ends
    # after the first deadline: what a timed-out gang would do next repeats the same round.
    def workload_135(name, min_count=None, group_name="workers"):
        policy = {"gang": {"minCount": min_count}} if min_count else {"basic": {}}
        return {"apiVersion": "scheduling.k8s.io/v1alpha1", "kind": "Workload",
                "metadata": {"name": name, "namespace": "default"},
                "spec": {"podGroups": [{"name": group_name, "policy": policy}]}}

    def member_135(name, wl, cpu="1", group_name="workers"):
        o = pod(name, cpu=cpu)
        o["spec"]["workloadRef"] = {"name": wl, "podGroup": group_name}
        return o

    timeout = "rejected due to timeout after waiting 5m0s at plugin GangScheduling"

    def case_135(name, what, objects, expect):
        case("gang-1-35-" + name, "Workload, 1.35: " + what, objects, expect, version="1.35",
             gates=GATES_136)

    case_135("permit-timeout", "a gang of minCount 3 with room for two: two members are assumed and "
             "wait at Permit holding their cpu, so a pod after them finds none; the third does not "
             "fit; at the 5-minute deadline both waiting members are rejected and unreserved, the "
             "gang binds nothing, and the pod that found no room binds",
             slots("n1", "n2") + [workload_135("train", 3)]
             + [member_135("w-%d" % i, "train") for i in range(3)] + [solo("solo")],
             ["pod w-0 pending " + timeout, "pod w-1 pending " + timeout,
              "pod w-2 pending " + pending(2, "2 Insufficient cpu"), "pod solo bound"])

    case_135("quorum-binds", "a gang of minCount 2 with room for both: the first waits at Permit "
             "and the second completes the quorum, so both bind",
             slots("n1", "n2") + [workload_135("train", 2)] + [member_135("w-%d" % i, "train") for i in range(2)],
             ["pod w-0 bound", "pod w-1 bound"])

    case_135("gangs-block-each-other", "two gangs of minCount 2 created together on two free slots: "
             "each first member is assumed and waits at Permit, each second member finds no room, "
             "and both deadlines pass with nothing bound (the 1.37 group cycle binds one gang whole)",
             slots("n1", "n2") + [workload_135("a", 2), workload_135("b", 2)]
             + [member_135("a-0", "a"), member_135("b-0", "b"), member_135("a-1", "a"), member_135("b-1", "b")],
             ["pod a-0 pending " + timeout, "pod b-0 pending " + timeout,
              "pod a-1 pending " + pending(2, "2 Insufficient cpu"),
              "pod b-1 pending " + pending(2, "2 Insufficient cpu")])

    case_135("quorum-missing", "a gang of minCount 3 with two pods: PreEnqueue keeps them out of "
             "the queue, untried",
             slots("n1", "n2", "n3") + [workload_135("train", 3)]
             + [member_135("w-%d" % i, "train") for i in range(2)],
             ["pod w-0 pending waiting for minCount pods from a gang to appear in scheduling queue",
              "pod w-1 pending waiting for minCount pods from a gang to appear in scheduling queue"])

    case_135("workload-missing", "a pod naming a Workload that does not exist waits for it",
             slots("n1") + [member_135("w-0", "nope")],
             ['pod w-0 pending waiting for pods\'s workload "nope" to appear in scheduling queue'])

    case_135("basic-partial", "a basic podGroup is plain pod-by-pod scheduling: three pods with room "
             "for two bind two",
             slots("n1", cpu="2") + [workload_135("svc")] + [member_135("s-%d" % i, "svc") for i in range(3)],
             ["pod s-0 node n1", "pod s-1 node n1", "pod s-2 pending " + pending(1, "1 Insufficient cpu")])
