# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: CompositePodGroup hierarchies as kube-scheduler 1.37 schedules them (alpha,
gate CompositePodGroup): the hierarchical quorum at PreEnqueue, the top-down placement of a tree
whose levels carry their own topology keys, minGroupCount, the greedy visit of siblings (the
alpha's known limitation: an earlier sibling may take the room a later one needed) and the
consistency rules of the hierarchy. Sources: KEP-6012, kubernetes.io concepts/workloads/
compositepodgroup-api (and its lifecycle page), scheduling-eviction/gang-scheduling and the
workload-scheduling notes (sections 5.2 and 8, case 15). The expectations were written before the
scheduler could place a tree."""

GATES_CPG = "GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true"


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})

    def prio_class(name, value):
        return {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
                "value": value}

    def policy(spec, gang_key, count, topology, prio):
        spec["schedulingPolicy"] = {"gang": {gang_key: count}} if count else {"basic": {}}
        if topology:
            spec["schedulingConstraints"] = {"topology": [{"key": topology}]}
        if prio:
            spec["priorityClassName"] = prio
        return spec

    def composite(name, min_groups=None, topology=None, parent=None, prio=None, disruption=None, workload="job"):
        """A CompositePodGroup: gang with `min_groups` child groups, basic without; `disruption`
        "all" or "single"."""
        spec = {"workloadRef": {"workloadName": workload, "templateName": name}}
        if parent:
            spec["parentCompositePodGroupName"] = parent
        if disruption:
            spec["disruptionMode"] = {disruption: {}}
        return {"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "CompositePodGroup",
                "metadata": {"name": name, "namespace": "default"},
                "spec": policy(spec, "minGroupCount", min_groups, topology, prio)}

    def leaf(name, parent, min_count=None, topology=None, disruption=None, workload="job"):
        spec = {"parentCompositePodGroupName": parent,
                "workloadRef": {"workloadName": workload, "templateName": name}}
        if disruption:
            spec["disruptionMode"] = {disruption: {}}
        return {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
                "metadata": {"name": name, "namespace": "default"},
                "spec": policy(spec, "minCount", min_count, topology, None)}

    def member(name, grp, prio=None, on=None):
        o = pod(name, cpu="1", node_name=on)
        o["spec"]["schedulingGroup"] = {"podGroupName": grp}
        if prio:
            o["spec"]["priorityClassName"] = prio
        return o

    def members(grp, n, prio=None):
        return [member("%s-%d" % (grp, i), grp, prio) for i in range(n)]

    def slots(name, cpu, **labels):
        return node(name, labels=labels or None, cpu=str(cpu))

    def ccase(name, what, objects, expect, gates=GATES_CPG):
        case("composite-" + name, "CompositePodGroup, 1.37: " + what, objects, expect, gates=gates)

    # ---- two levels of topology, resolved top-down (KEP-6012) ----
    blocks = [slots("b1-r1", 2, block="b1", rack="r1"), slots("b1-r2", 1, block="b1", rack="r2"),
              slots("b2-r3", 2, block="b2", rack="r3"), slots("b2-r4", 2, block="b2", rack="r4")]
    ccase("block-then-rack", "a job of two gangs kept in one block, each gang in one rack: block b1 "
          "has a rack for one gang only, so both land in block b2, one rack each",
          blocks + [composite("job", 2, topology="block"), leaf("a", "job", 2, topology="rack"),
                    leaf("b", "job", 2, topology="rack")] + members("a", 2) + members("b", 2),
          ["pod a-0 node b2-r3", "pod a-1 node b2-r3", "pod b-0 node b2-r4", "pod b-1 node b2-r4",
           "group a True", "group b True"])

    ccase("three-levels", "the same job with a composite group per replica (job over blocks, replica over "
          "racks, a gang of two workers per replica): three levels, the same placement",
          blocks + [composite("job", 2, topology="block"), composite("r0", 1, topology="rack", parent="job"),
                    composite("r1", 1, topology="rack", parent="job"), leaf("r0-w", "r0", 2), leaf("r1-w", "r1", 2)]
          + members("r0-w", 2) + members("r1-w", 2),
          ["pod r0-w-0 node b2-r3", "pod r0-w-1 node b2-r3", "pod r1-w-0 node b2-r4", "pod r1-w-1 node b2-r4",
           "group r0-w True", "group r1-w True"])
    ccase("parent-missing", "a PodGroup whose parent CompositePodGroup does not exist yet waits for it "
          "(the scheduler holds a hierarchy until all of its parents exist)",
          [slots("n1", 8), leaf("a", "job", 1)] + members("a", 1),
          ["pod a-0 pending-contains waiting for composite pod group default/job of its hierarchy to appear"])

    # ---- greedy siblings: no backtracking (the alpha's known limitation) ----
    racks = [slots("r1-a", 4, rack="r1"), slots("r2-a", 2, rack="r2")]
    ccase("greedy-sibling-steal", "gang a (three pods, minCount 2) takes the rack that holds all of its "
          "pods, leaving one slot there; gang b (minCount 3) then finds no rack, and the job binds "
          "nothing although a in r2 and b in r1 would have fitted",
          racks + [composite("job", 2), leaf("a", "job", 2, topology="rack"),
                   leaf("b", "job", 3, topology="rack")] + members("a", 3) + members("b", 3),
          ["pod a-%d pending-contains minGroupCount (2) cannot be satisfied" % i for i in range(3)]
          + ["pod b-%d pending-contains no rack domain holds minCount (3) pods: r2 2, r1 1" % i for i in range(3)]
          + ["group a False", "group b False"])

    # ---- minGroupCount ----
    three = [composite("job", 2), leaf("a", "job", 2), leaf("b", "job", 2), leaf("c", "job", 2)]
    three_pods = members("a", 2) + members("b", 2) + members("c", 2)
    ccase("min-group-count-met", "a job of three gangs with minGroupCount 2 and room for two gangs binds "
          "those two; the third stays pending",
          [slots("n1", 2), slots("n2", 2)] + three + three_pods,
          ["pod a-0 bound", "pod a-1 bound", "pod b-0 bound", "pod b-1 bound",
           "pod c-0 pending-contains minCount (2) cannot be satisfied",
           "pod c-1 pending-contains minCount (2) cannot be satisfied",
           "group a True", "group b True", "group c False"])
    ccase("min-group-count-unmet", "the same job with room for one gang binds nothing",
          [slots("n1", 2), slots("n2", 1)] + three + three_pods,
          ["pod a-%d pending-contains minGroupCount (2) cannot be satisfied" % i for i in range(2)]
          + ["pod c-1 pending-contains minGroupCount (2) cannot be satisfied",
             "group a False", "group b False", "group c False"])

    # ---- hierarchical quorum at PreEnqueue (notes section 8, case 15) ----
    driver_job = [composite("job", 2), leaf("workers", "job", 4), leaf("driver", "job", 1)]
    ccase("quorum-unmet", "a job of workers (minCount 4) and a driver (minCount 1) with minGroupCount 2 "
          "and only the four workers created waits for its driver: nothing is scheduled",
          [slots("n1", 8)] + driver_job + members("workers", 4),
          ["pod workers-%d pending-contains pod group default/driver: 0 of minCount 1 pods exist" % i
           for i in range(4)])
    ccase("quorum-met", "once the driver pod exists the whole job binds in one cycle",
          [slots("n1", 8)] + driver_job + members("workers", 4) + members("driver", 1),
          ["pod workers-%d bound" % i for i in range(4)] + ["pod driver-0 bound", "group workers True",
                                                            "group driver True"])

    # ---- consistency of the hierarchy (compositepodgroup-api/lifecycle) ----
    classes = [prio_class("batch", 100), prio_class("training", 1000)]
    ccase("priority-differs", "a member whose priority differs from the root's makes the scheduler "
          "refuse the whole hierarchy",
          classes + [slots("n1", 8), composite("job", 1, prio="training"), leaf("a", "job", 2)]
          + [member("a-0", "a", prio="training"), member("a-1", "a", prio="batch")],
          ["pod a-0 pending-contains should have the same priority as its root (1000)",
           "pod a-1 pending-contains pod default/a-1 has 100", "group a False"])

    # ---- the gate ----
    ccase("gate-off", "without the CompositePodGroup gate Kubernetes 1.37 does not serve the object",
          [slots("n1", 8), composite("job", 1), leaf("a", "job", 1)] + members("a", 1),
          ["error serves it only with the feature gate CompositePodGroup on"],
          gates="GenericWorkload=true,TopologyAwareWorkloadScheduling=true")

    # ---- workload-aware preemption for and of hierarchies (KEP-6012, kubernetes#140634) ----
    # The root is the preemptor at its priority: every lower-priority unit is taken away, the
    # tree's cycle runs once, then the units are given back most important first wherever they
    # still fit beside the tree's assumed pods; the members are nominated, nothing binds yet.
    def solo(name, prio, on):
        o = pod(name, cpu="1", node_name=on)
        o["spec"]["priorityClassName"] = prio
        return o

    def high_job(sizes):
        """A training job (priority 1000) of gangs a, b, ... of the given sizes, minGroupCount all."""
        names = "abcd"[:len(sizes)]
        return ([composite("job", len(sizes), prio="training")]
                + [leaf(n, "job", k) for n, k in zip(names, sizes)]
                + [m for n, k in zip(names, sizes) for m in members(n, k, prio="training")])

    full = [solo("x-%d" % i, "batch", "n1") for i in range(4)]
    ccase("preempts-lower-pods", "a training job of two gangs (two pods and one) on a node full of four "
          "batch pods evicts three of them, keeps the one bound first, and is nominated there",
          classes + [slots("n1", 4)] + full + high_job([2, 1]),
          ["victims x-1,x-2,x-3", "pod a-0 nominated n1", "pod a-1 nominated n1", "pod b-0 nominated n1",
           "pod a-0 pending-contains minGroupCount (2) cannot be satisfied", "group a False", "group b False"])
    ccase("preempt-not-enough", "the same job when one of the two slots is held by an inference pod of "
          "higher priority: even without the batch pod the tree does not fit, so nothing is evicted",
          classes + [prio_class("inference", 2000), slots("n1", 2), solo("x-0", "batch", "n1"),
                     solo("y-0", "inference", "n1")] + high_job([2, 1]),
          ["victims -", "pod a-0 nominated -", "pod b-0 nominated -", "group a False"])

    # A victim hierarchy: the highest ancestor with disruptionMode all is one unit, whatever its
    # descendants say; with single everywhere its pods go one by one.
    def low_job(root_mode):
        return ([composite("low", 2, prio="batch", disruption=root_mode, workload="low"),
                 leaf("l1", "low", 2, disruption="single", workload="low"),
                 leaf("l2", "low", 2, disruption="single", workload="low")]
                + [member("l%d-%d" % (g, i), "l%d" % g, prio="batch", on="n1") for g in (1, 2) for i in range(2)])

    for mode, victims in (("all", "l1-0,l1-1,l2-0,l2-1"), ("single", "l2-1")):
        p = pod("p", cpu="1")
        p["spec"]["priorityClassName"] = "training"
        ccase("pod-preempts-%s-hierarchy" % mode, "a pod that needs one slot of a node full of a batch "
              "hierarchy whose root's disruptionMode is %s (its PodGroups say single) evicts %s"
              % (mode, "the whole hierarchy" if mode == "all" else "one pod"),
              classes + [slots("n1", 4)] + low_job(mode) + [p],
              ["victims " + victims, "pod p nominated n1"])
    ccase("preempts-all-hierarchy", "a training job of one gang of two on a node full of a batch "
          "hierarchy with disruptionMode all evicts the whole hierarchy (its unit is never split)",
          classes + [slots("n1", 4)] + low_job("all") + high_job([2]),
          ["victims l1-0,l1-1,l2-0,l2-1", "pod a-0 nominated n1", "pod a-1 nominated n1"])

    # Victim order at equal priority: a CompositePodGroup before a PodGroup before a single pod;
    # the one reprieved is the hierarchy, although the single pod was bound first.
    pg = {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
          "metadata": {"name": "g", "namespace": "default"},
          "spec": {"schedulingPolicy": {"gang": {"minCount": 1}}, "disruptionMode": {"all": {}},
                   "priorityClassName": "batch"}}
    ccase("victim-order", "a job of one gang of two on a node of three slots held by a batch pod, a "
          "batch PodGroup (disruptionMode all) and a batch hierarchy (disruptionMode all), each of "
          "one pod: the hierarchy is reprieved, the PodGroup and the pod are evicted",
          classes + [slots("n1", 3), solo("s", "batch", "n1"), pg, member("g-0", "g", prio="batch", on="n1"),
                     composite("low", 1, prio="batch", disruption="all", workload="low"),
                     leaf("l1", "low", 1, workload="low"), member("l1-0", "l1", prio="batch", on="n1")]
          + high_job([2]),
          ["victims s,g-0", "pod a-0 nominated n1", "pod a-1 nominated n1"])
