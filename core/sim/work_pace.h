// SPDX-License-Identifier: Apache-2.0
#pragma once

// A workload's speed table at work (workload/speed_table.h). Each working pod goes at a pace: the
// seconds of its duration's work it does per second of run time, the table's factor for its
// devices. Rules, in the order they apply:
//  * A pod goes at the pace of the slowest of its devices whose model the table lists; devices it
//    does not list (NICs, an unlisted model) set no pace; a pod with none goes at the reference's
//    pace (1). A share of a device (a MIG partition, a trace pod's gpuMilli share, a claim shared
//    between pods) counts as a device of its model: the trace measured the same share of the
//    reference model, so the ratio of the two models' speeds applies unchanged.
//  * The members of a gang (a workload's `scheduling:` with a gang policy) work in lockstep: all
//    of them go at the pace of the slowest member working. When a slower member starts, or the
//    slowest one stops, the others' completions move (the work each has done is kept).
//  * Pods of other jobs work on their own, each at its own pace.
// Without a table every pace is 1 and nothing here changes a run.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/sim/run_summary.h"
#include "core/sim/sim_context.h"

namespace drasim::sim {

class DeviceLedger;

class WorkPace
{
public:
    WorkPace(SimContext& ctx, const DeviceLedger& ledger)
        : m_ctx(ctx)
        , m_ledger(ledger)
    { }

    /// `pods` (bound, with workStart and workBase set, all of one job) start working now: each is
    /// given its pace and its completion (a PodComplete event).
    void start(const std::vector<uint32_t>& pods);
    /// The pod stops working now (done, failed, evicted, deleted). Returns the work it had done:
    /// seconds of its duration, workBase included. With `repacePeers` the other working members
    /// of its gang go on at the pace of the slowest of them left.
    double stop(uint32_t pod, bool repacePeers);
    /// Whether a PodComplete event of the pod carrying `generation` is its current completion.
    bool current(uint32_t pod, uint32_t generation) const;
    /// The pod's pace: 1 unless it works under a speed table.
    double paceOf(uint32_t pod) const { return pod < m_pods.size() ? m_pods[pod].pace : 1.0; }
    /// The model that sets the pod's pace ("" when none does).
    std::string modelOf(uint32_t pod) const
    {
        return pod < m_pods.size() ? m_pods[pod].model : std::string();
    }
    /// The run ends now: the run time of the pods still working counts up to now.
    void finish();
    /// The workloads under which some pod went at a pace other than 1, by name.
    std::vector<SpeedSummary> summary() const;

private:
    struct PodPace
    {
        double own = 1; ///< the pace its own devices allow
        std::string ownModel;
        double pace = 1; ///< the pace it goes at (a gang's slowest member's)
        std::string model;
        uint32_t generation = 0; ///< of its current PodComplete event
    };
    struct ModelStats
    {
        double factor = 1;
        int64_t pods = 0; ///< pods that started working at this model's pace
        double seconds = 0; ///< run time spent at it
    };
    struct WorkloadStats
    {
        std::string reference;
        std::map<std::string, ModelStats> models;
        double savedSeconds = 0;
        bool shown = false; ///< some pace was not 1
    };

    PodPace& record(uint32_t pod);
    void measureOwn(uint32_t pod);
    bool lockstep(uint32_t job) const;
    void paceGang(uint32_t job, const std::vector<uint32_t>& starting);
    void rebase(uint32_t pod);
    void schedule(uint32_t pod);
    void count(uint32_t pod);

    SimContext& m_ctx;
    const DeviceLedger& m_ledger;
    std::vector<PodPace> m_pods; ///< by pod slot; grown only for pods under a speed table
    std::map<std::string, WorkloadStats> m_workloads;
};

} // namespace drasim::sim
