# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: DeviceTaintRules (resource.k8s.io/v1beta2 and v1alpha3) merged into the
devices they select, on top of the slices' own taints, as the scheduler's slice tracker does."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    N1 = [node("node-1")]
    PENDING = "pod p pending " + pending(1, "1 cannot allocate all claims")
    two = rslice("s", GPU, "pool", [dev("t0"), dev("ok")], node="node-1")
    c = claim("c", [req("gpu", "gpu.example.com")])
    p = pod("p", [("c", "c")])

    def with_rules(*rules, slice_=two, claim_=c):
        return N1 + [GPU_CLASS, slice_] + list(rules) + [claim_, p]

    # ---- what a rule selects ----
    case("taint-rule-device", "a rule naming driver, pool and device taints that device only",
         with_rules(taint_rule("drain-t0", {"driver": GPU, "pool": "pool", "device": "t0"})),
         ["pod p node node-1", "claim c devices gpu=pool/ok"])
    case("taint-rule-device-name-only", "a device name alone selects that device in every pool",
         with_rules(taint_rule("drain-t0", {"device": "t0"})),
         ["claim c devices gpu=pool/ok"])
    case("taint-rule-pool", "a rule naming the pool taints every device of it",
         with_rules(taint_rule("drain-pool", {"pool": "pool"})),
         [PENDING, "claim c unallocated"])
    case("taint-rule-driver-mismatch", "a rule for another driver leaves the devices alone",
         with_rules(taint_rule("drain-nics", {"driver": NIC})),
         ["claim c devices gpu=pool/t0"])
    case("taint-rule-pool-mismatch", "a rule for another pool leaves the devices alone",
         with_rules(taint_rule("drain-other", {"driver": GPU, "pool": "other"})),
         ["claim c devices gpu=pool/t0"])
    case("taint-rule-empty-selector", "the empty selector matches every device",
         with_rules(taint_rule("drain-all", {})),
         [PENDING, "claim c unallocated"])
    case("taint-rule-no-selector", "without a selector a rule matches no device",
         with_rules(taint_rule("drain-nothing", None)),
         ["claim c devices gpu=pool/t0"])
    case("taint-rule-v1alpha3", "v1alpha3 DeviceTaintRules are read like v1beta2 ones",
         with_rules(taint_rule("drain-t0", {"device": "t0"}, version="v1alpha3")),
         ["claim c devices gpu=pool/ok"])

    # ---- effects and tolerations ----
    case("taint-rule-noexecute", "a NoExecute rule keeps new claims off the device",
         with_rules(taint_rule("evict-t0", {"device": "t0"}, effect="NoExecute")),
         ["claim c devices gpu=pool/ok"])
    case("taint-rule-none-effect", "a rule with effect None is informational only",
         with_rules(taint_rule("note-all", {}, effect="None")),
         ["claim c devices gpu=pool/t0"])
    case("taint-rule-tolerated", "a toleration of the rule's taint lets the request use the device",
         with_rules(taint_rule("drain-all", {}),
                    claim_=claim("c", [req("gpu", "gpu.example.com",
                                           tolerations=[("maintenance", "Equal", "true", "NoSchedule")])])),
         ["claim c devices gpu=pool/t0"])
    case("taint-rule-on-top-of-slice-taint", "the rule's taint adds to the slice's own: tolerating one is not enough",
         with_rules(taint_rule("drain-t0", {"device": "t0"}, key="rule-key"),
                    slice_=rslice("s", GPU, "pool", [dev("t0", taints=[("own", "x", "NoSchedule")]), dev("ok")],
                                  node="node-1"),
                    claim_=claim("c", [req("gpu", "gpu.example.com",
                                           tolerations=[("own", "Exists", None, "NoSchedule")])])),
         ["claim c devices gpu=pool/ok"])
    case("taint-rule-two-rules", "two rules on two devices leave no device",
         with_rules(taint_rule("drain-t0", {"device": "t0"}), taint_rule("drain-ok", {"device": "ok"})),
         [PENDING])
    case("taint-rule-admin-not-exempt", "admin access does not bypass a rule's taint",
         N1 + [namespace("default", {"resource.kubernetes.io/admin-access": "true"}), GPU_CLASS, two,
               taint_rule("drain-all", {}), claim("c", [req("gpu", "gpu.example.com", admin=True)]), p],
         [PENDING])

    # ---- invalid rules ----
    def bad(name, what, rule, error, **kw):
        case(name, what, with_rules(rule), ["error " + error], **kw)

    bad("taint-rule-bad-effect", "PreferNoSchedule is a node taint effect, not a device one",
        taint_rule("r", {}, effect="PreferNoSchedule"),
        'DeviceTaintRule r: spec.taint.effect: Unsupported value: "PreferNoSchedule": supported values: '
        '"NoExecute", "NoSchedule", "None"')
    bad("taint-rule-missing-effect", "a taint needs an effect",
        taint_rule("r", {}, effect=""), "DeviceTaintRule r: spec.taint.effect: Required value")
    bad("taint-rule-bad-key", "a taint key is a label name",
        taint_rule("r", {}, key="-bad"), 'DeviceTaintRule r: spec.taint.key: Invalid value: "-bad"')
    bad("taint-rule-bad-driver", "a selected driver must be a valid driver name",
        taint_rule("r", {"driver": "Not_A_Driver"}),
        'DeviceTaintRule r: spec.deviceSelector.driver: Invalid value: "Not_A_Driver"')
    bad("taint-rule-selectors-removed", "CEL selectors were removed from DeviceTaintRules in 1.35",
        dict(taint_rule("r", {}), spec={"deviceSelector": {"selectors": [{"cel": {"expression": "true"}}]},
                                        "taint": {"key": "k", "effect": "NoSchedule"}}),
        'DeviceTaintRule r: spec.deviceSelector.selectors: unknown field "selectors" (removed in Kubernetes 1.35')
    bad("taint-rule-class-removed", "deviceClassName was removed from DeviceTaintRules in 1.35",
        dict(taint_rule("r", {}), spec={"deviceSelector": {"deviceClassName": "gpu.example.com"},
                                        "taint": {"key": "k", "effect": "NoSchedule"}}),
        'DeviceTaintRule r: spec.deviceSelector.deviceClassName: unknown field "deviceClassName"')
    bad("taint-rule-v1", "1.36 has no resource.k8s.io/v1 DeviceTaintRule",
        taint_rule("r", {}, version="v1"),
        'DeviceTaintRule r: apiVersion: no matches for kind "DeviceTaintRule" in version "resource.k8s.io/v1"',
        version="1.36", gates="DRADeviceTaintRules=true")
    bad("taint-rule-namespaced", "DeviceTaintRules are cluster-scoped",
        dict(taint_rule("r", {}), metadata={"name": "r", "namespace": "default"}),
        "DeviceTaintRule r: metadata.namespace: Forbidden: not allowed on this type")
