// SPDX-License-Identifier: Apache-2.0
#pragma once

// How fast a workload's jobs run on each device model: drasim's own knob, not a Kubernetes field.
// A workload's `speed:` names the model its durations were measured on (the reference) and the
// relative throughput of each model; a pod then works its duration x (reference speed / speed of
// its devices). Parsed by speed_table_yaml.h; the simulator applies it (core/sim/work_pace.h).

#include <map>
#include <string>

namespace drasim::workload {

struct SpeedTable
{
    /// The device attribute whose value names the model: an id ("productName"), matched in any
    /// domain, or a qualified name ("gpu.nvidia.com/productName"). Empty: the model as `simulate`
    /// reports utilisation by model (the first of `model`, `productName`, `pciDevice`).
    std::string attribute;
    std::string reference; ///< the model the workload's durations were measured on (listed in speeds)
    /// Relative throughput by model, any unit (the catalog's are dense BF16 TFLOPS): the catalog's
    /// defaults (core/topology/model_speeds.h) with the workload's own `models:` over them. Each
    /// value is above 0.
    std::map<std::string, double> speeds;

    /// How many times the reference's pace a device of `model` works at; 0 when the table does
    /// not list the model (a device of unknown speed).
    double factor(const std::string& model) const
    {
        auto it = speeds.find(model);
        auto ref = speeds.find(reference);
        if (it == speeds.end() || ref == speeds.end())
            return 0;
        return it->second / ref->second;
    }
};

} // namespace drasim::workload
