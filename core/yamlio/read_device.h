// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to yamlio: one device of a ResourceSlice (validateDevice of the API server) and the
// parts other resource.k8s.io readers share with it.
#include <map>
#include <string>

#include "core/api/dra_field_gates.h"
#include "core/yamlio/names.h"
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

/// v1beta1 and v1alpha3 wrap a device's fields in `basic` and keep requests flat.
inline bool legacyDevice(ResourceVersion v)
{
    return v == ResourceVersion::V1beta1 || v == ResourceVersion::V1alpha3;
}

/// Required when empty, else `check`'s message as an Invalid value.
inline void checkName(
    Reader& r, uint32_t n, const Path& p, const std::string& value, std::string (*check)(std::string_view))
{
    if (value.empty())
        r.required(n, p);
    else if (auto e = check(value); !e.empty())
        r.invalid(n, p, value, e);
}

/// Each issue as an error at node `n`, path `p`.
inline void reportNameIssues(Reader& r, uint32_t n, const Path& p, const std::vector<NameIssue>& issues)
{
    for (const auto& issue : issues)
        r.error(n, p, issue.text());
}

/// A driver name: Required when empty, else validateDriverName's findings.
inline void checkDriver(Reader& r, uint32_t n, const Path& p, const std::string& value)
{
    if (value.empty())
        r.required(n, p);
    else
        reportNameIssues(r, n, p, driverNameIssues(value));
}

/// dropDisabledFields of the API server's ResourceSlice, ResourceClaim and ResourceClaimTemplate
/// strategies: on create, a field of a feature whose gate is off is cleared before validation, so
/// it is neither checked nor stored. True when field `v` at `p` is to be skipped for that reason,
/// with a warning unless it is null. `gate` is null for a field no gate clears (the tables of
/// core/api/dra_field_gates.h answer for slices).
bool clearedByGate(Reader& r, uint32_t v, const Path& p, const char* gate);

/// Reads device `n` at `p`. Validation findings use the API server's internal paths, so a v1beta1
/// device's `basic.attributes` is reported as `attributes` (unknown fields keep their own path).
void readDevice(
    Reader& r, uint32_t n, const Path& p, ResourceVersion ver, bool perDeviceNodeSelection, api::Device& d);

/// A counters map (sharedCounters[].counters, consumesCounters[].counters): names are DNS labels,
/// at most 32, at least one.
void readCounterMap(Reader& r, uint32_t n, const Path& p, std::map<std::string, Quantity>& out);

/// Device.nodeAllocatableResources (read_node_allocatable.cpp): resource name -> mapping/overhead.
void readNodeAllocatableResources(
    Reader& r, uint32_t n, const Path& p, std::map<std::string, api::NodeAllocatableResource>& out);

/// One DeviceTaint, in a device and in a DeviceTaintRule (validateDeviceTaint).
void readDeviceTaint(Reader& r, uint32_t item, const Path& ip, api::DeviceTaint& t);

} // namespace drasim::yamlio
