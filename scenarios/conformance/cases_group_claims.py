# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: DRA ResourceClaims shared by a PodGroup (KEP-5729, gate
DRAWorkloadResourceClaims, 1.36 alpha and 1.37 beta, off by default). The expectations are those
of the workload-scheduling notes (section 4 and test case 12): a member's claim entry that equals
the group's entry field by field uses the group's one claim (generated from a template once per
PodGroup, owned by it), allocated for the first member scheduled and reserved for the PodGroup
with a single reservedFor entry, so more than 256 pods share it; any other entry is an ordinary
per-pod claim. With the gate off, 1.36 makes a claim per pod and 1.37 makes none for a matching
template entry, so the pod waits (resourceclaim.Name's "ResourceClaim not created yet",
DynamicResources PreEnqueue). A failed gang cycle leaves the group claim unallocated and reserved
for nobody. The fabric device is network-attached (allNodes), so members on different nodes reach
the same device."""

GATES_ON_137 = "GenericWorkload=true,DRAWorkloadResourceClaims=true"
GATES_OFF_137 = "GenericWorkload=true"
GATES_ON_136 = "GenericWorkload=true,GangScheduling=true,DRAWorkloadResourceClaims=true"
GATES_OFF_136 = "GenericWorkload=true,GangScheduling=true"


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})

    def fabric(n=2):
        """n network-attached devices every node reaches (one pool, allNodes)."""
        return rslice("fabric", GPU, "fabric", [dev("domain-%d" % i) for i in range(n)], all_nodes=True)

    def pgroup(name, entries, min_count=None, version="v1beta1", stored=None):
        """A PodGroup with spec.resourceClaims `entries` [(name, template)]; `stored` puts the claims
        generated for it in its status, as a PodGroup made while the gate was on carries them."""
        spec = {"schedulingPolicy": {"gang": {"minCount": min_count}} if min_count else {"basic": {}},
                "resourceClaims": [{"name": n, "resourceClaimTemplateName": t} for n, t in entries]}
        o = {"apiVersion": "scheduling.k8s.io/" + version, "kind": "PodGroup",
             "metadata": {"name": name, "namespace": "default", "uid": "uid-" + name}, "spec": spec}
        if stored:
            o["status"] = {"resourceClaimStatuses": [{"name": n, "resourceClaimName": c} for n, c in stored]}
        return o

    def gmember(name, grp, templates, cpu="1"):
        o = pod(name, cpu=cpu, templates=templates)
        o["spec"]["schedulingGroup"] = {"podGroupName": grp}
        return o

    def slots(count, cpu="1", pods="110"):
        return [node("n%d" % i, cpu=cpu, pods=pods) for i in range(1, count + 1)]

    def ccase(name, what, objects, expect, version="1.37", gates=GATES_ON_137):
        case("group-claim-" + name, "PodGroup claims, " + version + ": " + what, objects, expect,
             version=version, gates=gates)

    for version, gates, api in (("1.37", GATES_ON_137, "v1beta1"), ("1.36", GATES_ON_136, "v1alpha2")):
        ccase("shared-by-four-" + version.replace(".", "-"),
              "a gang of four, one pod per node, whose entry gpu equals the group's template entry: one "
              "claim for the group, owned by it, allocated once and reserved for the PodGroup alone",
              [GPU_CLASS, ONE_GPU, fabric()] + slots(4)
              + [pgroup("train", [("gpu", "one-gpu")], min_count=4, version=api)]
              + [gmember("w-%d" % i, "train", [("gpu", "one-gpu")]) for i in range(4)],
              ["pod w-%d bound" % i for i in range(4)]
              + ["claim train-gpu devices gpu=fabric/domain-0", "claim train-gpu reserved train"]
              + ["claim w-%d-gpu absent" % i for i in range(4)] + ["group train True"],
              version=version, gates=gates)

    members = 257
    ccase("over-256-members",
          "257 members share the group's claim (reservedFor holds the PodGroup once, far below its 256 "
          "limit); a member whose entry names another template gets its own claim (test case 12, with 257 pods for 300)",
          [GPU_CLASS, ONE_GPU, tmpl("other-gpu", [req("gpu", "gpu.example.com")]), fabric()]
          + slots(2, cpu="200", pods="200") + [pgroup("pg", [("pg-claim", "one-gpu")], min_count=4)]
          + [gmember("m-%d" % i, "pg", [("pg-claim", "one-gpu")]) for i in range(members)]
          + [gmember("odd", "pg", [("pg-claim", "other-gpu")])],
          ["pod m-0 bound", "pod m-255 bound", "pod m-256 bound", "pod odd bound",
           "claim pg-pg-claim devices gpu=fabric/domain-0", "claim pg-pg-claim reserved pg",
           "claim odd-pg-claim devices gpu=fabric/domain-1", "claim odd-pg-claim reserved odd",
           "claim m-0-pg-claim absent", "group pg True"])

    ccase("entry-differs",
          "only an entry equal in name and template uses the group's claim: another template, or "
          "another name with the same template, is an ordinary per-pod claim",
          [GPU_CLASS, ONE_GPU, tmpl("other-gpu", [req("gpu", "gpu.example.com")]), fabric(3)] + slots(3)
          + [pgroup("svc", [("gpu", "one-gpu")]),
             gmember("a", "svc", [("gpu", "one-gpu")]), gmember("b", "svc", [("gpu", "other-gpu")]),
             gmember("c", "svc", [("gpu-own", "one-gpu")])],
          ["pod a bound", "pod b bound", "pod c bound",
           "claim svc-gpu devices gpu=fabric/domain-0", "claim svc-gpu reserved svc",
           "claim b-gpu devices gpu=fabric/domain-1", "claim b-gpu reserved b",
           "claim c-gpu-own devices gpu=fabric/domain-2", "claim c-gpu-own reserved c",
           "claim a-gpu absent"])

    ccase("failed-gang",
          "a gang of three with room for two: the cycle places nobody, and the group's claim, made "
          "when the PodGroup appeared, stays unallocated and reserved for nobody",
          [GPU_CLASS, ONE_GPU, fabric()] + slots(2)
          + [pgroup("train", [("gpu", "one-gpu")], min_count=3)]
          + [gmember("w-%d" % i, "train", [("gpu", "one-gpu")]) for i in range(3)],
          ["pod w-%d pending-contains minCount (3) cannot be satisfied" % i for i in range(3)]
          + ["claim train-gpu unallocated", "claim train-gpu reserved", "group train False"])

    ccase("gate-off-1-37",
          "a PodGroup stored while the gate was on keeps its entries; with the gate now off the 1.37 "
          "claim controller creates no claim for a member's matching template entry, and the "
          "member waits for one",
          [GPU_CLASS, ONE_GPU, fabric()] + slots(2)
          + [pgroup("svc", [("gpu", "one-gpu")], stored=[("gpu", "svc-gpu")])]
          + [gmember("s-%d" % i, "svc", [("gpu", "one-gpu")]) for i in range(2)],
          ["pod s-%d pending-contains pod \"default/s-%d\": ResourceClaim not created yet" % (i, i)
           for i in range(2)]
          + ["claim s-0-gpu absent", "claim s-1-gpu absent", "claim svc-gpu absent", "group svc False"],
          gates=GATES_OFF_137)

    ccase("gate-off-1-36",
          "the same PodGroup on 1.36 with the gate off: the group's entry is ignored and each member "
          "gets its own claim from the template, as any pod",
          [GPU_CLASS, ONE_GPU, fabric()] + slots(2)
          + [pgroup("svc", [("gpu", "one-gpu")], version="v1alpha2", stored=[("gpu", "svc-gpu")])]
          + [gmember("s-%d" % i, "svc", [("gpu", "one-gpu")]) for i in range(2)],
          ["pod s-0 bound", "pod s-1 bound", "claim s-0-gpu devices gpu=fabric/domain-0",
           "claim s-1-gpu devices gpu=fabric/domain-1", "claim s-0-gpu reserved s-0", "claim svc-gpu absent",
           "group svc True"],
          version="1.36", gates=GATES_OFF_136)
