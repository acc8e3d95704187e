// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "core/sim/run_recorder.h"

namespace drasim::sim {

/// Writes every event of a run as one line of text, in the order the engine reports them
/// (simulated time, then processing order), so two runs can be compared event by event:
///   0s Created default/train-0 job=train workload=training
///   0s Scheduled default/train-0 node=h100-0 devices=default/train-0-gpu:gpu.nvidia.com/h100-0/gpu-0
///   10h NodeFailure h100-1
///   10h Failed default/train-0 node=h100-1: node h100-1 failed
/// Times are sim_time.h durations; a message ends its line after ": " with line breaks escaped.
class TranscriptWriter : public RunRecorder
{
public:
    void onPodEvent(const PodEvent& event) override;
    void onClusterEvent(const ClusterEvent& event) override;
    const std::string& text() const { return m_text; }

private:
    std::string m_text;
};

} // namespace drasim::sim
