// SPDX-License-Identifier: Apache-2.0
#pragma once

// Actual cost of a call whose cost depends on its arguments (cel-go's runtime cost tracker):
// the same formula the estimator used for the call, applied to the actual sizes. Since every
// actual size is within its estimated bound, the actual cost stays within the estimate.

#include "core/cel/ast.h"
#include "core/cel/interpreter.h"

namespace drasim::cel {

/// Cost of one evaluated call with rule `call.costRule` (not Fixed) and a non-error result.
int64_t dynamicCallCost(
    EvalContext& ctx, const Node& call, const Value* args, size_t count, const Value& result);

} // namespace drasim::cel
