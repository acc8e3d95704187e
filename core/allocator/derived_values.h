// SPDX-License-Identifier: Apache-2.0
#pragma once

// The claims' derived attributes (DRADerivedAttributes, KEP-6080) in one scheduling cycle: each
// expression is evaluated at most once per device (KEP-6080 "Risks and Mitigations": values are
// cached per candidate device for the cycle), whatever the node or search path.

#include <map>
#include <memory>
#include <utility>

#include "core/allocator/inventory.h"
#include "core/cel/derived_attribute.h"

namespace drasim::allocator {

class DerivedValues
{
public:
    void clear() { m_values.clear(); }
    /// The value (or runtime error) of `attr` for the device.
    const cel::DerivedValue& of(const cel::DerivedAttribute& attr, const DeviceEntry& e);

private:
    std::map<std::pair<const cel::DerivedAttribute*, DeviceInstance>, cel::DerivedValue> m_values;
};

} // namespace drasim::allocator
