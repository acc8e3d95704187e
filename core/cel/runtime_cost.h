// SPDX-License-Identifier: Apache-2.0
#pragma once

// Actual cost of a call whose cost depends on its arguments (cel-go's runtime cost tracker):
// the same formula the estimator used for the call, applied to the actual sizes.
//
// Decision: an argument's size is counted up to the bound the estimator assumed for it. cel-go's
// estimator is not always sound (dyn(5) has size 1, so string(dyn(5)), which matches the
// string(bytes) overload, is taken to be at most 1 character long); cel-go's tracker then
// charges more than estimated. Capping keeps every evaluation within its estimate, as the
// validation limit promises, and changes nothing where the estimate holds.

#include <algorithm>

#include "core/cel/ast.h"
#include "core/cel/interpreter.h"

namespace drasim::cel {

/// ceil(0.1 * x) in integers. It agrees with cel-go's floating-point product: 0.1 as a double
/// is slightly above a tenth, but never by enough to lift a multiple of ten to the next integer.
constexpr int64_t tenths(int64_t x)
{
    return (x + 9) / 10;
}

/// Cost of == or != on two strings (the hot case, kept inline): 0.1 x the smaller byte size,
/// capped at the estimator's bounds (see dynamicCallCost).
inline int64_t stringEqualityCost(const Node& call, const Value& a, const Value& b)
{
    size_t smaller = std::min(a.n, b.n);
    size_t bound = std::min(call.sizeBound[0], call.sizeBound[1]);
    return tenths(int64_t(smaller < bound ? smaller : bound));
}

/// Cost of a call with rule `call.costRule` (not Fixed), from its evaluated arguments; charged
/// before the call runs, so that a list too large for the budget is never built.
int64_t dynamicCallCost(EvalContext& ctx, const Node& call, const Value* args, size_t count);

/// Cost of s.matches(p) on two strings.
inline int64_t matchesCost(const Node& call, const Value& s, const Value& p)
{
    int64_t subject = int64_t(std::min(s.n, size_t(call.sizeBound[0])));
    int64_t pattern = int64_t(std::min(p.n, size_t(call.sizeBound[1])));
    return tenths(subject + 1) * ((pattern + 3) / 4);
}

/// Whether the interpreter charges this call before running it (the others are Fixed or
/// charged by their builtin).
inline bool chargedBeforeCall(const Node& call)
{
    return call.costRule > CostRule::Matches;
}

} // namespace drasim::cel
