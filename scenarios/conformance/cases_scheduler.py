# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: kube-scheduler behaviour around DRA (node filters, messages, claim lookup,
shared claims, scoring)."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    TWO = [node("node-a"), node("node-b")]
    base = [GPU_CLASS, gpus("node-a"), gpus("node-b"), ONE_GPU]

    # ---- node filters and the FitError message (§6.3) ----
    case("node-selector-mismatch", "spec.nodeSelector restricts nodes before DRA is consulted",
         [node("node-a", {"gpu": "yes"}), node("node-b")] + base
         + [pod("p", templates=[("gpu", "one-gpu")], selector={"gpu": "no"})],
         ["pod p pending " + pending(2, "2 node(s) didn't match Pod's node affinity/selector")])
    case("node-selector-match", "the node matching spec.nodeSelector is used",
         [node("node-a"), node("node-b", {"gpu": "yes"})] + base + [pod("p", templates=[("gpu", "one-gpu")], selector={"gpu": "yes"})],
         ["pod p node node-b", "claim p-gpu devices gpu=node-b/gpu-0"])
    case("required-node-affinity", "required node affinity with matchExpressions",
         [node("node-a", {"zone": "z1"}), node("node-b", {"zone": "z2"})] + base
         + [pod("p", templates=[("gpu", "one-gpu")], affinity=sel_term(("zone", "NotIn", ["z1"])))],
         ["pod p node node-b"])
    case("required-node-affinity-fields", "required node affinity with matchFields on metadata.name",
         TWO + base + [pod("p", templates=[("gpu", "one-gpu")],
                           affinity=sel_term(fields=[("metadata.name", "In", ["node-b"])]))],
         ["pod p node node-b"])
    case("node-taint-untolerated", "an untolerated NoSchedule node taint is reported with key and value",
         [node("node-a", taints=[("dedicated", "ml", "NoSchedule")]), node("node-b", taints=[("dedicated", "ml", "NoSchedule")])]
         + base + [pod("p", templates=[("gpu", "one-gpu")])],
         ["pod p pending " + pending(2, "2 node(s) had untolerated taint {dedicated: ml}")])
    case("node-taint-tolerated", "a pod toleration lets it use the tainted node",
         [node("node-a", taints=[("dedicated", "ml", "NoSchedule")]), node("node-b", taints=[("dedicated", "ml", "NoSchedule")])]
         + base + [pod("p", templates=[("gpu", "one-gpu")], tolerations=[("dedicated", "Equal", "ml", "NoSchedule")])],
         ["pod p node node-a"])
    case("node-unschedulable", "a cordoned node is rejected",
         [node("node-a", unschedulable=True), node("node-b", unschedulable=True)] + base
         + [pod("p", templates=[("gpu", "one-gpu")])],
         ["pod p pending " + pending(2, "2 node(s) were unschedulable")])
    case("insufficient-cpu", "cpu requests beyond allocatable",
         TWO + base + [pod("p", templates=[("gpu", "one-gpu")], cpu="16")],
         ["pod p pending " + pending(2, "2 Insufficient cpu")])
    case("insufficient-cpu-and-memory", "both resources short: both reasons counted per node",
         TWO + base + [pod("p", templates=[("gpu", "one-gpu")], cpu="16", memory="64Gi")],
         ["pod p pending " + pending(2, "2 Insufficient cpu", "2 Insufficient memory")])
    case("too-many-pods", "a node at its pod limit",
         [node("node-a", pods="1")] + [GPU_CLASS, gpus("node-a"), ONE_GPU]
         + [pod("p1", templates=[("gpu", "one-gpu")]), pod("p2", templates=[("gpu", "one-gpu")])],
         ["pod p1 node node-a", "pod p2 pending " + pending(1, "1 Too many pods")])
    case("extended-resource-device-plugin", "a device-plugin pod (nvidia.com/gpu) is placed by allocatable",
         [node("node-a", extra={"nvidia.com/gpu": "1"}), node("node-b", extra={"nvidia.com/gpu": "2"})]
         + [pod("p1", extended={"nvidia.com/gpu": "2"}), pod("p2", extended={"nvidia.com/gpu": "2"})],
         ["pod p1 node node-b", "pod p2 pending " + pending(2, "2 Insufficient nvidia.com/gpu")])
    case("mixed-reasons-sorted", "reasons are counted per node and sorted as strings",
         [node("node-a", {"x": "1"}), node("node-b"), node("node-c"), GPU_CLASS, gpus("node-b", 1), ONE_GPU,
          claim("hold", [req("gpu", "gpu.example.com")], allocation=[("gpu", GPU, "node-b", "gpu-0")], reserved=["x"]),
          pod("p", templates=[("gpu", "one-gpu")], affinity=sel_term(("x", "DoesNotExist", [])))],
         ["pod p pending " + pending(3, "1 node(s) didn't match Pod's node affinity/selector", "2 cannot allocate all claims")])
    case("node-filter-before-dra", "a node failing cpu is reported for cpu, not for its devices",
         [node("node-a", cpu="1"), node("node-b")] + [GPU_CLASS, gpus("node-a"), ONE_GPU,
                                                      pod("p", templates=[("gpu", "one-gpu")], cpu="2")],
         ["pod p pending " + pending(2, "1 Insufficient cpu", "1 cannot allocate all claims")])
    case("no-nodes", "a cluster without nodes",
         [GPU_CLASS, ONE_GPU, pod("p", templates=[("gpu", "one-gpu")])],
         ["pod p pending no nodes available to schedule pods"])

    # ---- claim lookup and PreFilter (§6.1, §6.2) ----
    case("missing-claim", "a pod naming a claim that does not exist",
         TWO + base + [pod("p", [("gpu", "nope")])],
         ["pod p pending resourceclaim.resource.k8s.io \"nope\" not found"])
    case("missing-template", "a pod naming a template that does not exist",
         TWO + base + [pod("p", templates=[("gpu", "nope")])],
         ["pod p pending resourceclaimtemplate.resource.k8s.io \"nope\" not found"])
    case("missing-device-class", "a request naming a DeviceClass that does not exist",
         TWO + base + [claim("c", [req("gpu", "no-such-class")]), pod("p", [("gpu", "c")])],
         ["pod p pending " + pending(2, "request gpu: device class no-such-class does not exist")])
    case("missing-subrequest-class", "a subrequest naming a missing class is reported as req/sub",
         TWO + base + [claim("c", [plist("gpu", ("a", "gpu.example.com", {}), ("b", "nope", {}))]), pod("p", [("gpu", "c")])],
         ["pod p pending " + pending(2, "request gpu/b: device class nope does not exist")])
    case("claim-being-deleted", "a claim with a deletion timestamp is not used",
         TWO + base + [claim("c", [req("gpu", "gpu.example.com")], deleting=True), pod("p", [("gpu", "c")])],
         ["pod p pending resourceclaim \"c\" is being deleted"])
    case("claim-other-namespace", "claims are looked up in the pod's namespace",
         TWO + base + [claim("c", [req("gpu", "gpu.example.com")], ns="team-a"), pod("p", [("gpu", "c")])],
         ["pod p pending resourceclaim.resource.k8s.io \"c\" not found"])
    case("template-claim-naming", "a template claim is named <pod>-<pod claim name>, owned by the pod, labels copied",
         TWO + [GPU_CLASS, gpus("node-a"), tmpl("one-gpu", [req("gpu", "gpu.example.com")], labels={"team": "ml"}),
                pod("trainer", templates=[("accel", "one-gpu")])],
         ["pod trainer node node-a", "claim trainer-accel devices gpu=node-a/gpu-0", "claim trainer-accel reserved trainer"])
    case("template-not-owner", "an existing claim with the generated name that the pod does not own",
         TWO + base + [claim("p-gpu", [req("gpu", "gpu.example.com")]), pod("p", templates=[("gpu", "one-gpu")])],
         ["pod p pending ResourceClaim default/p-gpu was not created for pod default/p (pod is not owner)"])
    case("template-not-owner-being-deleted", "a generated-name claim being deleted is reported as deleted before ownership",
         TWO + base + [claim("p-gpu", [req("gpu", "gpu.example.com")], deleting=True),
                       pod("p", templates=[("gpu", "one-gpu")])],
         ["pod p pending resourceclaim \"p-gpu\" is being deleted"])
    case("unreferenced-claim-not-allocated", "a claim no pod references stays unallocated",
         TWO + base + [claim("orphan", [req("gpu", "gpu.example.com")])],
         ["claim orphan unallocated"])

    # ---- shared claims (§6.7) ----
    case("shared-claim-follows-node", "the second pod of a shared claim goes where the claim was allocated",
         TWO + [GPU_CLASS, gpus("node-b"), claim("shared", [req("gpu", "gpu.example.com")]),
                pod("p1", [("gpu", "shared")]), pod("p2", [("gpu", "shared")])],
         ["pod p1 node node-b", "pod p2 node node-b", "claim shared devices gpu=node-b/gpu-0",
          "claim shared reserved p1,p2"])
    case("shared-claim-unavailable", "a pod whose other constraints exclude the shared claim's node",
         [node("node-a"), node("node-b", {"pool": "x"}), GPU_CLASS, gpus("node-a"),
          claim("shared", [req("gpu", "gpu.example.com")]),
          pod("p1", [("gpu", "shared")]), pod("p2", [("gpu", "shared")], selector={"pool": "x"})],
         ["pod p1 node node-a",
          "pod p2 pending " + pending(2, "1 node(s) didn't match Pod's node affinity/selector", "1 resourceclaim not available on the node")])
    case("allocated-input-claim-restricts-node", "an input claim allocated with a node selector restricts the pod",
         TWO + [GPU_CLASS, gpus("node-a"), gpus("node-b"),
                claim("c", [req("gpu", "gpu.example.com")], allocation=[("gpu", GPU, "node-b", "gpu-1")],
                      allocated_node="node-b"),
                pod("p", [("gpu", "c")])],
         ["pod p node node-b", "claim c devices gpu=node-b/gpu-1", "claim c reserved p"])
    case("shared-claim-no-extra-devices", "sharing a claim uses no additional devices",
         [node("node-a"), GPU_CLASS, gpus("node-a", 1), claim("shared", [req("gpu", "gpu.example.com")]), ONE_GPU,
          pod("p1", [("gpu", "shared")]), pod("p2", [("gpu", "shared")]), pod("p3", templates=[("gpu", "one-gpu")])],
         ["pod p2 node node-a", "pod p3 pending " + pending(1, "1 cannot allocate all claims")])

    # ---- pods already bound / finished ----
    def with_toleration_seconds(p, seconds):
        p["spec"]["tolerations"][0]["tolerationSeconds"] = seconds
        return p
    case("toleration-empty-key-needs-exists", "an empty toleration key with operator Equal is refused, as the API server does",
         [node("node-a", taints=[("dedicated", "ml", "NoSchedule")])] + [GPU_CLASS, gpus("node-a"), ONE_GPU]
         + [pod("p", templates=[("gpu", "one-gpu")], tolerations=[(None, "Equal", "ml")])],
         ["error Pod default/p: spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists "
          "when `key` is empty, which means \"match all values and all keys\""])
    case("toleration-seconds-needs-noexecute", "tolerationSeconds on a NoSchedule toleration is refused",
         TWO + base + [with_toleration_seconds(
             pod("p", templates=[("gpu", "one-gpu")], tolerations=[("dedicated", "Exists", None, "NoSchedule")]), 60)],
         ["error Pod default/p: spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be "
          "'NoExecute' when `tolerationSeconds` is set"])
    case("bound-pod-uses-resources", "a pod with spec.nodeName counts against the node's cpu",
         [node("node-a", cpu="2"), node("node-b", cpu="2"), GPU_CLASS, gpus("node-a"), gpus("node-b"), ONE_GPU,
          pod("running", node_name="node-a", cpu="2"), pod("p", templates=[("gpu", "one-gpu")], cpu="1")],
         ["pod p node node-b"])
    case("finished-pod-ignored", "a Succeeded pod without nodeName is not scheduled",
         TWO + base + [pod("done", templates=[("gpu", "one-gpu")], phase="Succeeded")],
         ["claim done-gpu absent"])

    # ---- scoring (§6.5) ----
    case("scoring-spreads-by-default", "default scoring (LeastAllocated) spreads pods over equal nodes",
         TWO + base + [pod("p1", templates=[("gpu", "one-gpu")]), pod("p2", templates=[("gpu", "one-gpu")])],
         ["pod p1 node node-a", "pod p2 node node-b"])
    case("scoring-tie-by-name", "equal scores: the node name that sorts first wins",
         [node("node-z"), node("node-m"), node("node-a")] + [GPU_CLASS, gpus("node-z"), gpus("node-m"), gpus("node-a"), ONE_GPU,
                                                             pod("p", templates=[("gpu", "one-gpu")])],
         ["pod p node node-a"])
    case("scoring-least-allocated-cpu", "the node with more free cpu wins",
         [node("node-a", cpu="4"), node("node-b", cpu="16")] + base + [pod("p", templates=[("gpu", "one-gpu")], cpu="2")],
         ["pod p node node-b"])
    case("scoring-explicit-zero-cpu", "an explicit zero cpu request scores as zero, not as the 100m default",
         [node("node-a", cpu="1"), node("node-b", cpu="8")] + base
         + [pod("p", templates=[("gpu", "one-gpu")], cpu="0", memory="1Gi")],
         ["pod p node node-a"])

    def without_memory(n):
        del n["status"]["capacity"]["memory"]
        del n["status"]["allocatable"]["memory"]
        return n
    case("scoring-node-without-memory", "a resource the node has none of is left out of the resource score",
         [without_memory(node("node-a", cpu="4")), node("node-b", cpu="4")] + base
         + [pod("p", templates=[("gpu", "one-gpu")], cpu="1")],
         ["pod p node node-a"])
    case("scoring-preferred-affinity", "preferred node affinity outweighs resource scores",
         TWO + base + [pod("p", templates=[("gpu", "one-gpu")], preferred=[(50, sel_term(fields=[("metadata.name", "In", ["node-b"])]))])],
         ["pod p node node-b"])
    case("scoring-prefer-no-schedule", "a PreferNoSchedule taint steers the pod away",
         [node("node-a", taints=[("spot", "true", "PreferNoSchedule")]), node("node-b")] + base
         + [pod("p", templates=[("gpu", "one-gpu")])],
         ["pod p node node-b"])
    case("scoring-dra-only-where-possible", "the node without devices is never chosen, whatever its score",
         [node("node-a", cpu="64"), node("node-b", cpu="2")] + [GPU_CLASS, gpus("node-b"), ONE_GPU,
                                                                pod("p", templates=[("gpu", "one-gpu")])],
         ["pod p node node-b"])
