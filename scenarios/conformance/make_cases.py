#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes scenarios/conformance/<case>/input.yaml for every case defined below.

Each case states, in `# expect:` header lines of its input, the facts Kubernetes' DRA semantics
(the upstream scheduler plugin and structured-parameters allocator) predict: which node each pod lands on or the exact pending
message, and which devices each claim gets. tests/unit/conformance checks those lines against the
actual result independently of expected.yaml (the full golden output of `drasim allocate`).

    python3 scenarios/conformance/make_cases.py        # rewrite the inputs
    (see README.md for regenerating the goldens)
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = "gpu.example.com"
NIC = "nic.example.com"


# ---- a minimal block-style YAML emitter (enough for manifests) -------------------------------
PLAIN = re.compile(r"^[A-Za-z0-9_./-][A-Za-z0-9_./: -]*$")
RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"}


def scalar(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if (PLAIN.match(s) and s.lower() not in RESERVED and not re.match(r"^[-+]?[0-9.]", s)
            and ": " not in s and not s.endswith(":") and not s.startswith("- ")):
        return s
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit(v, indent=0):
    pad = "  " * indent
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{k}:")
                out.extend(emit(x, indent + (1 if isinstance(x, dict) else 0)))
            elif isinstance(x, dict):
                out.append(f"{pad}{k}: {{}}")
            elif isinstance(x, list):
                out.append(f"{pad}{k}: []")
            else:
                out.append(f"{pad}{k}: {scalar(x)}")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = emit(x, indent + 1)
                first = sub[0].lstrip()
                out.append(f"{pad}- {first}")
                out.extend(sub[1:])
            else:
                out.append(f"{pad}- {scalar(x)}")
    return out


# ---- object builders --------------------------------------------------------------------------
def taint_rule(name, selector, key="maintenance", value="true", effect="NoSchedule", version="v1beta2"):
    spec = {}
    if selector is not None:
        spec["deviceSelector"] = selector
    taint = {"key": key}
    if value:
        taint["value"] = value
    taint["effect"] = effect
    spec["taint"] = taint
    return {"apiVersion": "resource.k8s.io/" + version, "kind": "DeviceTaintRule", "metadata": {"name": name},
            "spec": spec}


def namespace(name, labels=None):
    meta = {"name": name}
    if labels:
        meta["labels"] = labels
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta}


def node(name, labels=None, cpu="8", memory="32Gi", pods="110", taints=None, unschedulable=False, extra=None):
    alloc = {"cpu": cpu, "memory": memory, "pods": pods}
    alloc.update(extra or {})
    meta = {"name": name}
    if labels:
        meta["labels"] = labels
    spec = {}
    if taints:
        spec["taints"] = [dict(zip(("key", "value", "effect"), t)) for t in taints]
    if unschedulable:
        spec["unschedulable"] = True
    o = {"apiVersion": "v1", "kind": "Node", "metadata": meta}
    if spec:
        o["spec"] = spec
    o["status"] = {"capacity": dict(alloc), "allocatable": alloc}
    return o


def cls(name, selectors=(), config=None, driver=None):
    spec = {}
    sels = list(selectors)
    if driver:
        sels.insert(0, f'device.driver == "{driver}"')
    if sels:
        spec["selectors"] = [{"cel": {"expression": s}} for s in sels]
    if config:
        spec["config"] = [{"opaque": {"driver": d, "parameters": p}} for d, p in config]
    return {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": name}, "spec": spec}


def attr(v):
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": v}
    if isinstance(v, str) and v.startswith("v:"):
        return {"version": v[2:]}
    return {"string": v}


def dev(name, attrs=None, cap=None, taints=None, counters=None, multi=None, binding=None, node=None,
        all_nodes=None, node_selector=None, binds_to_node=None, policy=None):
    d = {"name": name}
    if attrs:
        d["attributes"] = {k: attr(v) for k, v in attrs.items()}
    if cap:
        d["capacity"] = {}
        for k, v in cap.items():
            c = {"value": v}
            if policy and k in policy:
                c["requestPolicy"] = policy[k]
            d["capacity"][k] = c
    if counters:
        d["consumesCounters"] = [{"counterSet": cs, "counters": {k: {"value": v} for k, v in cs_c.items()}}
                                 for cs, cs_c in counters.items()]
    if node:
        d["nodeName"] = node
    if all_nodes:
        d["allNodes"] = True
    if node_selector:
        d["nodeSelector"] = node_selector
    if taints:
        d["taints"] = [dict(zip(("key", "value", "effect"), t)) for t in taints]
    if binds_to_node:
        d["bindsToNode"] = True
    if binding:
        d["bindingConditions"] = binding[0]
        d["bindingFailureConditions"] = binding[1]
    if multi:
        d["allowMultipleAllocations"] = True
    return d


def rslice(name, driver, pool, devices=(), node=None, all_nodes=False, node_selector=None, per_device=False,
           gen=1, count=1, counters=None):
    spec = {"driver": driver, "pool": {"name": pool, "generation": gen, "resourceSliceCount": count}}
    if node:
        spec["nodeName"] = node
    if all_nodes:
        spec["allNodes"] = True
    if node_selector:
        spec["nodeSelector"] = node_selector
    if per_device:
        spec["perDeviceNodeSelection"] = True
    if devices:
        spec["devices"] = list(devices)
    if counters:
        spec["sharedCounters"] = [{"name": n, "counters": {k: {"value": v} for k, v in c.items()}}
                                  for n, c in counters.items()]
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": name}, "spec": spec}


def sel_term(*exprs, fields=()):
    t = {}
    if exprs:
        t["matchExpressions"] = [{"key": k, "operator": op, "values": list(vals)} for k, op, vals in exprs]
    if fields:
        t["matchFields"] = [{"key": k, "operator": op, "values": list(vals)} for k, op, vals in fields]
    return {"nodeSelectorTerms": [t]}


def exact(cls_name, count=None, selectors=(), mode=None, admin=None, tolerations=None, capacity=None, derived=None):
    """derived: [(name, expression)], the request's derivedAttributes (DRADerivedAttributes)."""
    e = {"deviceClassName": cls_name}
    if selectors:
        e["selectors"] = [{"cel": {"expression": s}} for s in selectors]
    if mode:
        e["allocationMode"] = mode
    if count is not None:
        e["count"] = count
    if admin is not None:
        e["adminAccess"] = admin
    if tolerations:
        e["tolerations"] = [tol(*t) for t in tolerations]
    if capacity:
        e["capacity"] = {"requests": capacity}
    if derived:
        e["derivedAttributes"] = [{"name": n, "expression": x} for n, x in derived]
    return e


def tol(key, op="Equal", value=None, effect=None):
    t = {}
    if key:
        t["key"] = key
    t["operator"] = op
    if value is not None:
        t["value"] = value
    if effect:
        t["effect"] = effect
    return t


def req(name, cls_name, **kw):
    return {"name": name, "exactly": exact(cls_name, **kw)}


def plist(name, *subs):
    return {"name": name, "firstAvailable": [dict({"name": n}, **exact(c, **kw)) for n, c, kw in subs]}


def claim_spec(requests, constraints=None, config=None):
    d = {"requests": list(requests)}
    if constraints:
        d["constraints"] = constraints
    if config:
        d["config"] = [dict(({"requests": r} if r else {}), opaque={"driver": drv, "parameters": p})
                       for r, drv, p in config]
    return {"devices": d}


def match(attribute, requests=None):
    c = {"matchAttribute": attribute}
    if requests:
        c["requests"] = requests
    return c


def distinct(attribute, requests=None):
    c = {"distinctAttribute": attribute}
    if requests:
        c["requests"] = requests
    return c


def claim(name, requests, constraints=None, config=None, ns="default", allocation=None, reserved=None,
          deleting=False, allocated_node=None):
    o = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
         "metadata": {"name": name, "namespace": ns}, "spec": claim_spec(requests, constraints, config)}
    if deleting:
        o["metadata"]["deletionTimestamp"] = "2025-01-01T00:00:00Z"
        o["metadata"]["finalizers"] = ["resource.kubernetes.io/delete-protection"]
    if allocation is not None:
        status = {"allocation": {"devices": {"results": [
            dict({"request": r, "driver": d, "pool": p, "device": x}, **extra)
            for r, d, p, x, extra in [(a + ({},) if len(a) == 4 else a) for a in allocation]]}}}
        if allocated_node:
            status["allocation"]["nodeSelector"] = sel_term(fields=[("metadata.name", "In", [allocated_node])])
        if reserved:
            status["reservedFor"] = [{"resource": "pods", "name": n, "uid": "uid-" + n} for n in reserved]
        o["status"] = status
    return o


def tmpl(name, requests, constraints=None, config=None, ns="default", labels=None):
    spec = {"spec": claim_spec(requests, constraints, config)}
    if labels:
        spec = {"metadata": {"labels": labels}, "spec": spec["spec"]}
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
            "metadata": {"name": name, "namespace": ns}, "spec": spec}


def pod(name, claims=(), templates=(), node_name=None, cpu=None, memory=None, selector=None, tolerations=None,
        affinity=None, preferred=None, ns="default", extended=None, phase=None, limits=None, requests=None):
    container = {"name": "main", "image": "registry.k8s.io/pause:3.10"}
    only_limits = limits
    requests = dict(requests or {})
    if cpu:
        requests["cpu"] = cpu
    if memory:
        requests["memory"] = memory
    if extended:
        requests.update(extended)
    refs = [{"name": n, "resourceClaimName": c} for n, c in claims]
    refs += [{"name": n, "resourceClaimTemplateName": t} for n, t in templates]
    res = {}
    if requests:
        res["requests"] = requests
        if extended:
            res["limits"] = dict(extended)
    if only_limits:  # limits as written, requests left to the API server's defaulting
        res.setdefault("limits", {}).update(only_limits)
    if refs:
        res["claims"] = [{"name": r["name"]} for r in refs]
    if res:
        container["resources"] = res
    spec = {"containers": [container]}
    if node_name:
        spec["nodeName"] = node_name
    if selector:
        spec["nodeSelector"] = selector
    if tolerations:
        spec["tolerations"] = [tol(*t) for t in tolerations]
    aff = {}
    if affinity:
        aff["requiredDuringSchedulingIgnoredDuringExecution"] = affinity
    if preferred:
        aff["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {"weight": w, "preference": term["nodeSelectorTerms"][0]} for w, term in preferred]
    if aff:
        spec["affinity"] = {"nodeAffinity": aff}
    if refs:
        spec["resourceClaims"] = refs
    o = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns, "uid": "uid-" + name},
         "spec": spec}
    if phase:
        o["status"] = {"phase": phase}
    return o


# ---- common fixtures ----------------------------------------------------------------------------
def gpus(node_name, n=2, pool=None, attrs=None, name=None):
    return rslice(name or f"{node_name}-gpus", GPU, pool or node_name,
                  [dev(f"gpu-{i}", attrs(i) if attrs else None) for i in range(n)], node=node_name)


GPU_CLASS = cls("gpu.example.com", driver=GPU)
NIC_CLASS = cls("nic.example.com", driver=NIC)
ONE_GPU = tmpl("one-gpu", [req("gpu", "gpu.example.com")])

CASES = []


def case(name, what, objects, expect, version=None, gates=None):
    """version: the cluster's Kubernetes version ("1.36"), gates: --feature-gates text; 1.37
    defaults without them."""
    header = []
    if version:
        header.append(f"# kubernetes-version: {version}")
    if gates:
        header.append(f"# feature-gates: {gates}")
    CASES.append((name, what, objects, expect, header))


def pending(n_nodes, *parts):
    return "0/%d nodes are available: %s." % (n_nodes, ", ".join(parts))


from cases_basic import register as reg_basic  # noqa: E402  (case lists live in sibling modules)
from cases_features import register as reg_features  # noqa: E402
from cases_scheduler import register as reg_scheduler  # noqa: E402
from cases_generations import register as reg_generations  # noqa: E402
from cases_extended import register as reg_extended  # noqa: E402
from cases_cel import register as reg_cel  # noqa: E402
from cases_admission import register as reg_admission  # noqa: E402
from cases_taint_rules import register as reg_taint_rules  # noqa: E402
from cases_fidelity import register as reg_fidelity  # noqa: E402
from cases_preemption import register as reg_preemption  # noqa: E402
from cases_versions import register as reg_versions  # noqa: E402
from cases_gangs import register as reg_gangs  # noqa: E402
from cases_group_claims import register as reg_group_claims  # noqa: E402
from cases_composites import register as reg_composites  # noqa: E402
from cases_derived import register as reg_derived  # noqa: E402
from cases_gates import register as reg_gates  # noqa: E402


def main():
    g = globals()
    reg_basic(g)
    reg_features(g)
    reg_scheduler(g)
    reg_generations(g)
    reg_extended(g)
    reg_cel(g)
    reg_admission(g)
    reg_taint_rules(g)
    reg_fidelity(g)
    reg_preemption(g)
    reg_versions(g)
    reg_gangs(g)
    reg_group_claims(g)
    reg_composites(g)
    reg_derived(g)
    reg_gates(g)
    names = set()
    for name, what, objects, expect, header in CASES:
        assert name not in names, name
        names.add(name)
        d = os.path.join(HERE, name)
        os.makedirs(d, exist_ok=True)
        lines = [f"# {what}"] + header + [f"# expect: {e}" for e in expect]
        for o in objects:
            lines.append("---")
            lines.extend(emit(o))
        with open(os.path.join(d, "input.yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")
    print(f"{len(CASES)} cases", file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()
