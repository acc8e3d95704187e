# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: CEL folding at validation, uint(double) range, cost estimate parity."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    N1 = [node("node-1")]
    IDX = 'device.attributes["gpu.example.com"].index'

    def with_selector(name, what, selector, expect):
        # node-1 with gpu-0 (index 0) and gpu-1 (index 1); one claim with the selector.
        case(name, what,
             N1 + [GPU_CLASS, gpus("node-1", attrs=lambda i: {"index": i}),
                   claim("c", [req("gpu", "gpu.example.com", selectors=[selector])]), pod("p", [("gpu", "c")])],
             expect)

    sel_field = "ResourceClaim default/c: spec.devices.requests[0].exactly.selectors[0].cel.expression"

    # ---- folding is bottom-up: a failing conversion of a constant rejects the selector ----
    with_selector("cel-fold-dyn-conversion", "int(dyn(\"x\")): dyn of a constant is a constant, so the conversion fails at validation",
                  'int(dyn("x")) == 0', ["error " + sel_field, "error invalid syntax"])
    with_selector("cel-fold-nested-conversion", "uint(uint(dyn(\"e\"))): the innermost failing conversion rejects the selector",
                  'uint(uint(dyn("e"))) == 1u', ["error " + sel_field, "error invalid syntax"])
    with_selector("cel-fold-dyn-overflow", "int(dyn(9223372036854775808u)) overflows while the program is planned",
                  'int(dyn(9223372036854775808u)) == 1', ["error " + sel_field, "error integer overflow"])
    with_selector("cel-fold-in-macro-body", "a failing constant conversion inside a macro body is folded too",
                  '[1].map(z, uint(-0.75)) == [0u]', ["error " + sel_field, "error unsigned integer overflow"])
    with_selector("cel-fold-succeeds", "a constant conversion that succeeds is folded and the selector works",
                  f'{IDX} == int(dyn("1"))', ["pod p node node-1", "claim c devices gpu=node-1/gpu-1"])

    # ---- uint(double) accepts only 0 <= v < 2^64 ----
    with_selector("cel-uint-negative-literal", "uint(-0.75) is an unsigned integer overflow, at validation for a literal",
                  f'uint(-0.75) == 0u && {IDX} == 0', ["error " + sel_field, "error unsigned integer overflow"])
    with_selector("cel-uint-negative-runtime", "uint(index - 0.75) on index 0 overflows at run time: the pod stays pending",
                  f'uint(double({IDX}) - 0.75) == 0u',
                  ["pod p pending-contains claim default/c: selector #0: CEL runtime error: unsigned integer overflow",
                   "claim c unallocated"])
    with_selector("cel-uint-negative-zero", "uint(-0.0) is 0",
                  f'uint(-0.0) == 0u && {IDX} == 1', ["pod p node node-1", "claim c devices gpu=node-1/gpu-1"])

    # ---- the cost estimate follows cel-go's rules for strings ----
    with_selector("cel-cost-concat-unknown-size", "string(2.0) has no known size: + and == on it are too complex",
                  'string(2.0) + "x" == "1x"', ["error " + sel_field, "error too complex, exceeds cost limit"])
    with_selector("cel-cost-compare-unknown-sizes", "== of two conversion results: the smaller maximum size is unknown",
                  'string(1) == string(false ? 1 : 1)', ["error " + sel_field, "error too complex, exceeds cost limit"])
    with_selector("cel-cost-startswith-argument", "startsWith costs the argument's size, not the receiver's: accepted",
                  f'string({IDX}).startsWith("1")', ["pod p node node-1", "claim c devices gpu=node-1/gpu-1"])
    with_selector("cel-cost-endswith-argument", "endsWith costs the argument's size: accepted",
                  f'string({IDX}).endsWith("0")', ["pod p node node-1", "claim c devices gpu=node-1/gpu-0"])
    with_selector("cel-cost-indexed-literal-argument", "an element of a literal list has the elements' size: accepted",
                  f'string({IDX} in [0.0/0.0]).startsWith(["f", "t"][0])',
                  ["pod p node node-1", "claim c devices gpu=node-1/gpu-0"])
    with_selector("cel-cost-compare-literal", "comparing a conversion with a literal costs the literal's size: accepted",
                  f'string({IDX}) == "1"', ["pod p node node-1", "claim c devices gpu=node-1/gpu-1"])
    # ---- Kubernetes prices == between two values of one of its types (library cost.go) ----
    # node-1 with gpu-0 (80Gi, index 0) and gpu-1 (40Gi, index 1).
    def with_memory(name, what, selector, expect):
        mem = {0: "80Gi", 1: "40Gi"}
        case(name, what,
             N1 + [GPU_CLASS,
                   rslice("node-1-gpus", GPU, "node-1",
                          [dev(f"gpu-{i}", {"index": i}, cap={"memory": mem[i]}) for i in range(2)], node="node-1"),
                   claim("c", [req("gpu", "gpu.example.com", selectors=[selector])]), pod("p", [("gpu", "c")])],
             expect)

    MEM = 'device.capacity["gpu.example.com"].memory'
    GPU1 = ["pod p node node-1", "claim c devices gpu=node-1/gpu-1"]
    GPU0 = ["pod p node node-1", "claim c devices gpu=node-1/gpu-0"]
    TOO_COMPLEX = ["error " + sel_field, "error too complex, exceeds cost limit"]
    with_memory("cel-cost-quantity-equality", "== of two quantities costs 1: a capacity compared with == is accepted",
                f'{MEM} == quantity("40Gi")', GPU1)
    with_memory("cel-cost-quantity-equality-reversed", "== of two quantities costs 1 in either order",
                f'quantity("80Gi") == {MEM}', GPU0)
    with_memory("cel-cost-quantity-inequality", "!= keeps cel-go's size rule: two quantities have no size, too complex",
                f'{MEM} != quantity("40Gi")', TOO_COMPLEX)
    with_memory("cel-cost-quantity-inequality-reversed", "!= of two quantities is too complex in either order",
                f'quantity("40Gi") != {MEM}', TOO_COMPLEX)
    with_memory("cel-cost-quantity-equality-dyn", "== of a quantity and a dyn: different types keep cel-go's rule, too complex",
                f'{MEM} == dyn(quantity("40Gi"))', TOO_COMPLEX)
    for kind, a, b in (("semver", 'semver("1.2.3+a")', 'semver("1.2.3+b")'),
                       ("ip", 'ip("10.0.0.1")', 'ip("10.0.0.1")'),
                       ("cidr", 'cidr("10.0.0.0/8")', 'cidr("10.0.0.0/8")'),
                       ("url", 'url("https://a/b")', 'url("https://a/b")')):
        with_selector(f"cel-cost-{kind}-equality", f"== of two {kind} values costs 1 (a URL by its size): accepted",
                      f'{a} == {b} && {IDX} == 1', GPU1)
        with_selector(f"cel-cost-{kind}-equality-reversed", f"== of two {kind} values, the device test first: accepted",
                      f'{IDX} == 0 && {b} == {a}', GPU0)
        if kind == "url":
            # A URL has its argument's size, so cel-go's rule bounds != of two URLs of literals.
            with_selector("cel-cost-url-inequality", "!= of two URLs of literals: cel-go's rule, bounded by their sizes",
                          f'url("https://a/b") != url("https://a/c") && {IDX} == 1', GPU1)
        else:
            with_selector(f"cel-cost-{kind}-inequality", f"!= of two {kind} values keeps cel-go's size rule: too complex",
                          f'{a} != {b} && {IDX} == 1', TOO_COMPLEX)
            with_selector(f"cel-cost-{kind}-inequality-reversed", f"!= of two {kind} values is too complex in either order",
                          f'{IDX} == 1 && {b} != {a}', TOO_COMPLEX)
