// SPDX-License-Identifier: Apache-2.0
// What the trace and manifest source tests share: the trace fixtures' folder and a source's jobs.
#pragma once

#include <string>
#include <vector>

#include "core/workload/workload.h"

namespace drasim::test_support {

/// tests/data/workload/trace/, with the trailing slash.
inline const std::string kTraceData = DRASIM_SOURCE_DIR "/tests/data/workload/trace/";

/// Every job `s` produces, in arrival order.
inline std::vector<workload::JobSpec> drain(workload::ArrivalSource& s)
{
    std::vector<workload::JobSpec> out;
    while (auto j = s.next())
        out.push_back(std::move(*j));
    return out;
}

} // namespace drasim::test_support
