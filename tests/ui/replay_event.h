// SPDX-License-Identifier: Apache-2.0
#pragma once

// One recorded pod event as the desktop's replay models read it, for tests that build a run's
// history by hand.

#include <string>

#include "ui/models/pod_replay.h"

namespace drasim::testing {

inline ui::ReplayEvent replayEvent(sim::SimTime t, sim::PodEventType type, const std::string& pod,
    const std::string& node = {}, const std::string& message = {})
{
    ui::ReplayEvent e;
    e.time = t;
    e.type = type;
    e.pod = pod;
    e.node = node;
    e.message = message;
    return e;
}

} // namespace drasim::testing
