# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: what the API server admits before the scheduler sees it (admin access gated
by the namespace label)."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    N1 = [node("node-1")]
    LABEL = "resource.kubernetes.io/admin-access"
    FORBIDDEN = ("spec.devices.requests[0].adminAccess: Forbidden: admin access to devices requires the "
                 "`resource.kubernetes.io/admin-access: true` label on the containing namespace")
    admin_claim = claim("c", [req("gpu", "gpu.example.com", admin=True)])

    # ---- admin access needs a labelled namespace (registry strategy, AuthorizedForAdmin) ----
    case("admin-namespace-labelled", "a namespace labelled for admin access admits an admin-access claim",
         N1 + [namespace("default", {LABEL: "true"}), GPU_CLASS, gpus("node-1", 1), admin_claim,
               pod("p", [("c", "c")])],
         ["pod p node node-1", "claim c devices gpu=node-1/gpu-0"])
    case("admin-namespace-unlabelled", "an admin-access claim in a namespace without the label is forbidden",
         N1 + [namespace("default"), GPU_CLASS, gpus("node-1", 1), admin_claim, pod("p", [("c", "c")])],
         ["error ResourceClaim default/c: " + FORBIDDEN])
    case("admin-namespace-label-false", "the label must say exactly \"true\"",
         N1 + [namespace("default", {LABEL: "false"}), GPU_CLASS, gpus("node-1", 1), admin_claim,
               pod("p", [("c", "c")])],
         ["error ResourceClaim default/c: " + FORBIDDEN])
    case("admin-namespace-second-request", "the first request with admin access is the one reported",
         N1 + [namespace("default"), GPU_CLASS, gpus("node-1", 2),
               claim("c", [req("gpu", "gpu.example.com"), req("watch", "gpu.example.com", admin=True),
                           req("watch2", "gpu.example.com", admin=True)]),
               pod("p", [("c", "c")])],
         ["error ResourceClaim default/c: spec.devices.requests[1].adminAccess: Forbidden: admin access"])
    case("admin-namespace-template", "a template with admin access is gated like a claim, with the same path",
         N1 + [namespace("team-a"), GPU_CLASS, gpus("node-1", 1),
               tmpl("watch", [req("gpu", "gpu.example.com", admin=True)], ns="team-a"),
               pod("p", templates=[("gpu", "watch")], ns="team-a")],
         ["error ResourceClaimTemplate team-a/watch: " + FORBIDDEN])
    case("admin-namespace-missing", "namespaces are loaded but not the claim's: the lookup fails",
         N1 + [namespace("team-a", {LABEL: "true"}), GPU_CLASS, gpus("node-1", 1), admin_claim,
               pod("p", [("c", "c")])],
         ["error ResourceClaim default/c: spec.devices.requests[0].adminAccess: Internal error: could not "
          "retrieve namespace to verify admin access: namespaces \"default\" not found"])
    case("admin-false-not-gated", "adminAccess: false needs no label",
         N1 + [namespace("default"), GPU_CLASS, gpus("node-1", 1),
               claim("c", [req("gpu", "gpu.example.com", admin=False)]), pod("p", [("c", "c")])],
         ["pod p node node-1", "claim c devices gpu=node-1/gpu-0"])
    case("admin-other-namespace-labelled", "the label of another namespace does not count",
         N1 + [namespace("default"), namespace("ops", {LABEL: "true"}), GPU_CLASS, gpus("node-1", 1),
               admin_claim, pod("p", [("c", "c")])],
         ["error ResourceClaim default/c: " + FORBIDDEN])
