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

#include "core/cel/ast.h"
#include "core/cel/interpreter.h"

namespace drasim::cel {

/// Cost of one evaluated call with rule `call.costRule` (not Fixed) and a non-error result.
int64_t dynamicCallCost(
    EvalContext& ctx, const Node& call, const Value* args, size_t count, const Value& result);

} // namespace drasim::cel
