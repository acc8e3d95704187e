// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/permit.h"

#include <cstdio>

#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

std::string goDuration(int64_t milliseconds)
{
    if (milliseconds == 0)
        return "0s";
    std::string out = milliseconds < 0 ? "-" : "";
    int64_t ms = milliseconds < 0 ? -milliseconds : milliseconds;
    if (ms < 1000)
        return out + std::to_string(ms) + "ms"; // Go's smaller unit below a second
    const int64_t hours = ms / 3'600'000;
    const int64_t minutes = ms / 60'000 % 60;
    const int64_t seconds = ms / 1000 % 60;
    const int64_t fraction = ms % 1000;
    if (hours > 0)
        out += std::to_string(hours) + "h";
    if (hours > 0 || minutes > 0)
        out += std::to_string(minutes) + "m";
    out += std::to_string(seconds);
    if (fraction > 0) {
        char digits[8];
        std::snprintf(digits, sizeof digits, ".%03lld", static_cast<long long>(fraction));
        std::string f = digits;
        while (f.back() == '0')
            f.pop_back();
        out += f;
    }
    return out + "s";
}

std::string gangPermitTimeoutMessage(int64_t waitedMilliseconds)
{
    return "rejected due to timeout after waiting " + goDuration(waitedMilliseconds)
        + " at plugin GangScheduling";
}

bool unreservePod(Cluster& cluster, const std::string& podKey)
{
    Cluster::Impl& d = *cluster.m_impl;
    if (!d.bound.count(podKey))
        return false;
    // podFinished is a deletion: it also deletes the claims generated for the pod. An unreserved
    // pod lives on, so its generated claims are kept aside and put back.
    auto generated = d.generatedFor.extract(podKey);
    const bool known = d.podFinished(podKey);
    if (!generated.empty())
        d.generatedFor.insert(std::move(generated));
    return known;
}

} // namespace drasim::scheduler
