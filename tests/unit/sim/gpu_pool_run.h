// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

namespace drasim::sim::testing {

/// A run of the engine over the scheduler model on nodes "n-<i>" with `gpus` GPUs each (gpuPool,
/// with oneGpuClassAndTemplate's class and template), with injected events: the setting the
/// PodGroup and hierarchy tests share.
struct GpuPoolRun
{
    SimOptions options;
    int nodes = 3;
    int gpus = 1;
    std::vector<InjectedEvent> events;

    /// Runs the jobs to the end; what a recorder of type Log heard.
    template <class Log>
    Log runAndRecord(std::vector<workload::JobSpec> jobs, RunSummary* summary = nullptr) const
    {
        scheduler::Cluster cluster(oneGpuClassAndTemplate());
        SchedulerClusterPort port(cluster);
        Simulator sim(port, options);
        prepare(sim, std::move(jobs));
        Log log;
        sim.addRecorder(&log);
        RunSummary s = sim.run();
        if (summary)
            *summary = s;
        return log;
    }

    /// The pod as the engine has it at `t` (what `explain --at` starts from).
    Simulator::PodAt podAt(std::vector<workload::JobSpec> jobs, SimTime t, const std::string& key) const
    {
        scheduler::Cluster cluster(oneGpuClassAndTemplate());
        SchedulerClusterPort port(cluster);
        Simulator sim(port, options);
        prepare(sim, std::move(jobs));
        sim.runUntil(t);
        return sim.podAt(key);
    }

private:
    void prepare(Simulator& sim, std::vector<workload::JobSpec> jobs) const
    {
        sim.addNodePool(gpuPool("n", nodes, gpus));
        sim.setArrivals(source(std::move(jobs)));
        for (const auto& e : events)
            sim.addEvent(e);
    }
};

} // namespace drasim::sim::testing
