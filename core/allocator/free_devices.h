// SPDX-License-Identifier: Apache-2.0
#pragma once

// A node the search (§3.5) is certain to leave without a solution, told from its free devices
// before the search starts. In a packed cluster most nodes a pod is tried on have free devices of
// another kind only (the NICs beside fully used GPUs): the search would visit each of them, find
// no match, and end in "no solution". Counting the free devices that match each request gives
// the same answer without the search.

#include <cstdint>
#include <vector>

namespace drasim::allocator {

class Allocator;
struct NodeView;

struct FreeDevices
{
    /// One subrequest of the prepared claims: the devices it needs and its selectors.
    struct Need
    {
        uint32_t selectorSet = 0;
        int64_t count = 0;
        uint32_t request = 0; ///< which request (numbered over all claims) it is an alternative of
    };
    struct Needs
    {
        std::vector<Need> subs; ///< empty: the claims never take the shortcut
        uint32_t requests = 0;
        uint64_t alternatives = 1; ///< the product of every request's alternatives
        // Scratch of tooFew, kept with the needs so that a call allocates nothing.
        std::vector<int64_t> matching; ///< free devices matching each subrequest
        std::vector<uint8_t> served; ///< per request: an alternative has enough of them
    };

    /// What the shortcut needs to know of the prepared claims, made once per preparation. Empty
    /// when no node can take it: admin access, All mode, derived attributes or a claim over the
    /// result limit are involved (the search may then end otherwise than with "no solution"), or
    /// no device is needed.
    static Needs needsOf(const Allocator& allocator);

    /// True when some request of the prepared claims has no alternative with as many free
    /// devices matching its selectors on the node as it asks for, so the search could only end
    /// in "no solution". False (undecided: the search must run) when the outcome could be
    /// anything else or look different: an observer traces the search; a device allows multiple
    /// allocations (one device may then serve several results); a pool is invalid; a free
    /// device's selectors raise an error (the search would stop on it with that error); or the
    /// search could have taken enough steps to read the clock or exhaust its step budget first.
    static bool tooFew(Allocator& allocator, const NodeView& view);
};

} // namespace drasim::allocator
