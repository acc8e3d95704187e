// SPDX-License-Identifier: Apache-2.0
#pragma once

// The API server's CEL checks of a claim's derived attributes (validateCELExpression with
// derivedAttribute set, pkg/apis/resource/validation): each expression compiles with a scalar
// result type (or a list of one, with DRAListTypeAttributes) and within the cost limit, and their estimated
// costs together stay within the claim's budget (DeviceClaimDerivedAttributeCELMaxCost).

#include <string>
#include <string_view>

#include "core/api/resource_v1.h"
#include "core/common/diagnostic.h"

namespace drasim::cel {

/// Reports each failure at its expression; `prefix` is the path of the claim spec ("spec" or
/// "spec.spec"), `messagePrefix` is put before each compiler message. `listTypes`: the feature
/// gate DRAListTypeAttributes, which lets a result be a list.
void checkDerivedAttributes(const api::ResourceClaimSpec& spec, const std::string& kind,
    const std::string& name, const std::string& prefix, std::string_view messagePrefix, bool listTypes,
    Diagnostics& diags);

} // namespace drasim::cel
