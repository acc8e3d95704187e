// SPDX-License-Identifier: Apache-2.0
#pragma once

// Tree-walking evaluator over the checked AST. Values are returned by value and never touch the
// heap on the common paths (see value.h), which makes selector evaluation allocation-free.

#include <cstdint>

#include "core/cel/ast.h"
#include "core/cel/cel.h"

namespace drasim::cel {

/// Kubernetes caps each DeviceMatches evaluation at this many cost units (cel.md §12).
constexpr int64_t kRuntimeCostLimit = 1000000;

struct EvalContext
{
    const DeviceView* device = nullptr;
    Value* locals = nullptr; ///< one slot per iteration/bind variable
    int64_t cost = 0;
    int64_t limit = kRuntimeCostLimit;
    bool cancelled = false;

    /// Adds cost units; once the limit is passed the evaluation is cancelled for good, so an
    /// error-absorbing operator cannot hide it.
    bool charge(int64_t units)
    {
        cost += units;
        if (cost > limit)
            cancelled = true;
        return !cancelled;
    }
};

Value evaluateNode(EvalContext& ctx, const Node& node);

/// The cancellation error cel-go reports when the runtime cost budget is exhausted.
Value costLimitError();

/// Converts device.attributes / device.attributes[d] (lazy views) into an ordinary map value.
Value materialize(EvalContext& ctx, const Value& v);

/// Value of one device attribute as CEL sees it (int, bool, string, or semver).
Value attributeValue(const api::DeviceAttribute& a);

/// Looks up `name` in domain `domain` of the device's attributes (flag 0) or capacity (flag 1).
/// Returns false when absent.
bool lookupDeviceEntry(
    const DeviceView& device, int flag, std::string_view domain, std::string_view name, Value* out);

/// The "no such key" runtime error.
Value noSuchKey(std::string_view key);

} // namespace drasim::cel
