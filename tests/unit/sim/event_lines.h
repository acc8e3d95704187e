// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/sim/run_recorder.h"
#include "core/sim/sim_time.h"

namespace drasim::sim::testing {

/// A run's pod events as lines ("<time> <Type> <pod> @<node>: <message>"), creations and
/// unschedulable cycles left out: what the preemption runs assert on.
struct EventLines : RunRecorder
{
    std::vector<std::string> lines;
    void onPodEvent(const PodEvent& e) override
    {
        if (e.type == PodEventType::Unschedulable || e.type == PodEventType::Created)
            return;
        lines.push_back(formatDuration(e.time) + " " + podEventTypeName(e.type) + " " + e.pod
            + (e.node.empty() ? "" : " @" + e.node) + (e.message.empty() ? "" : ": " + e.message));
    }
    bool has(const std::string& line) const
    {
        return std::find(lines.begin(), lines.end(), line) != lines.end();
    }
    /// Lines that contain `fragment`.
    int count(const std::string& fragment) const
    {
        return int(std::count_if(lines.begin(), lines.end(),
            [&](const std::string& l) { return l.find(fragment) != std::string::npos; }));
    }
    std::string dump() const
    {
        std::string s;
        for (const auto& l : lines)
            s += l + "\n";
        return s;
    }
};

} // namespace drasim::sim::testing
