// SPDX-License-Identifier: Apache-2.0
#pragma once

// How a claim's matchAttribute and distinctAttribute constraints compare the values of the devices
// they cover. A device offers one attribute value, or several when a list-valued derived attribute
// (DRADerivedAttributes) stands in for the attribute.
//
// With DRAListTypeAttributes on, upstream's experimental allocator compares sets (KEP-5491,
// structured/internal/experimental constraint.go): a scalar is a set of one, matchAttribute keeps
// the intersection of the devices' sets and needs it non-empty, distinctAttribute needs each
// device's set disjoint from every earlier one's. With it off, values compare as scalars: a list
// equals no value, and a list among the earlier devices of a distinctAttribute fails every later
// device (the scalar comparison's "unknown type" branch).

#include <optional>
#include <string>
#include <vector>

#include "core/api/resource_v1.h"

namespace drasim::allocator {

/// The value a device offers a constraint: one attribute, a list, or nothing (absent).
struct ConstraintValue
{
    const api::DeviceAttribute* scalar = nullptr;
    const std::vector<api::DeviceAttribute>* list = nullptr;
    bool present() const { return scalar || list; }
};

/// One constraint of a claim during an attempt; picks are undone last first.
struct ConstraintState
{
    int count = 0; ///< devices added
    /// Scalar comparison, matchAttribute: the value the first device fixed (nullopt: a list).
    std::optional<api::DeviceAttribute> value;
    /// Scalar comparison, distinctAttribute: each added device's value (nullopt: a list).
    std::vector<std::optional<api::DeviceAttribute>> distinct;
    /// Set comparison: per added device, the intersection so far (matchAttribute) or the device's
    /// own set (distinctAttribute).
    std::vector<std::vector<api::DeviceAttribute>> sets;
};

/// Type and value equal (a string never equals an int).
bool sameValue(const api::DeviceAttribute& a, const api::DeviceAttribute& b);

/// Whether a device with value `v` (present) may join the devices added so far. `sets`: the
/// DRAListTypeAttributes comparison.
bool constraintAccepts(bool match, bool sets, const ConstraintState& st, const ConstraintValue& v);
/// Records an accepted device.
void constraintPush(bool match, bool sets, ConstraintState& st, const ConstraintValue& v);
/// Undoes the last constraintPush.
void constraintPop(bool match, bool sets, ConstraintState& st);

/// The value as the allocation trace shows it ("1", "[0, 1]").
std::string constraintValueText(const ConstraintValue& v);

} // namespace drasim::allocator
