// SPDX-License-Identifier: Apache-2.0
#pragma once

// A CEL device selector previewed against every device of a set of ResourceSlices, as
// `drasim cel` and the GUI's selector box show it: per device match, no match, or the runtime
// error that would keep a pod pending. Selectors are tried in order and the first one that is
// not true decides, as in the scheduler.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object_set.h"
#include "core/cel/cel.h"

namespace drasim::session {

enum class DeviceMatch { Match, NoMatch, Error };

struct DeviceVerdict
{
    std::string driver;
    std::string pool;
    std::string device;
    std::string node; ///< the slice's node ("" for network-attached devices)
    DeviceMatch match = DeviceMatch::Match;
    size_t selector = 0; ///< for NoMatch and Error: the selector that decided
    std::string error; ///< for Error: the CEL runtime error, as CEL words it
};

struct SelectorPreview
{
    bool compiled = false;
    cel::CompileError compileError; ///< when not compiled: message, line and column in the expression
    std::vector<DeviceVerdict> devices; ///< slices in input order, devices in slice order
    size_t matched = 0;
    size_t unmatched = 0;
    size_t errors = 0;
};

/// Every device of `objects`' slices judged by the selectors, in order.
SelectorPreview evaluateSelectors(
    const std::vector<std::shared_ptr<const cel::Selector>>& selectors, const api::ObjectSet& objects);

/// Compiles the expression as the API server compiles new ones, then evaluates it against every
/// device; a compile error leaves devices empty.
SelectorPreview previewSelector(std::string_view expression, const api::ObjectSet& objects);

} // namespace drasim::session
