// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a pod's claims ask for, request by request, when counting devices per class is not enough:
// a request's own selectors (a MIG profile), a consumable-capacity request (a share of a device
// that allows multiple allocations), a matchAttribute constraint (a GPU and a NIC under one PCIe
// root) or ordered alternatives (a firstAvailable list of more than one subrequest: "one H100,
// else two A100"; each alternative is a RequestShape of its own, tagged with the list's number
// and its rank in it). The general claim measure (device_fragmentation.h) reads typical claims in this form;
// a shape whose requests are all plain (none of the three) is the whole-device shape of claim_fragmentation.h
// and is measured there, so runs without such claims keep their numbers.

#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace drasim::gpushare {

struct RequestShape
{
    std::string deviceClass;
    std::vector<std::string> selectors; ///< the request's own CEL expressions, in order
    int64_t count = 1;
    /// Consumable capacity asked of each device, in milli-units, by capacity name.
    std::map<std::string, int64_t> capacityMilli;
    /// The attribute a matchAttribute constraint aligns this request on ("" when none), and the
    /// constraint's number within the pod (requests with one number must agree on the value).
    std::string matchAttribute;
    int alignGroup = -1;
    /// A subrequest of a firstAvailable list with more than one: the list's number within the pod
    /// (-1 for a request without alternatives) and the subrequest's rank in it (0 = the first).
    int firstAvailable = -1;
    int alternative = 0;

    auto operator<=>(const RequestShape&) const = default;
};

/// Every request of a pod's claims that asks for devices, in a canonical order (normalizeShape).
using ClaimShape = std::vector<RequestShape>;

/// Neither selectors, nor a capacity request, nor an alignment, nor an alternative.
bool isPlain(const RequestShape& request);
bool isPlain(const ClaimShape& shape);

/// Sorts the requests and merges the plain requests of one class into one (their counts added):
/// two pods that ask for the same devices have one shape, however their claims split them. The
/// alternatives of a request stay apart, each with its list's number and rank, so a shape is
/// grouped with its alternatives in full.
void normalizeShape(ClaimShape& shape);

} // namespace drasim::gpushare
