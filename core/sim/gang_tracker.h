// SPDX-License-Identifier: Apache-2.0
#pragma once

// Distributed jobs (a workload's `scheduling:` makes each job's pods one PodGroup) do no work
// until minCount of their pods run: a training job's workers wait for their peers. This tracker
// decides when each member's work starts and records what waiting cost: the time from arrival to
// the start, and the device-hours held by members of jobs that had not started. Under gang
// scheduling the members bind together and nothing is held idle; bound one by one, the early
// members hold their devices doing nothing, and so do the members of a Kubernetes 1.35 gang that
// wait at Permit for their peers (assumed, unbound). A CompositePodGroup hierarchy is one such
// job whatever the Jobs its pods come from: its root is the unit, whole once its hierarchical
// quorum is bound (tree_quorum.h).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/sim/percentiles.h"
#include "core/sim/sim_time.h"
#include "core/sim/tree_quorum.h"

namespace drasim::sim {

/// The gang part of a run summary (present when a workload has `scheduling:`).
struct GangSummary
{
    int64_t jobs = 0; ///< grouped jobs (and hierarchies) that arrived
    int64_t started = 0; ///< jobs that reached minCount running members (hierarchies: their quorum)
    /// Arrival to the start, per job; a job that never started counts its wait (censored).
    DistributionSummary secondsToStart;
    /// Arrival to the end of its last member, per job; a job still there at the end of the run
    /// counts its time so far (censored).
    DistributionSummary secondsToComplete;
    double idleDeviceHours = 0; ///< devices held by members of jobs not started yet
    uint64_t groupCycles = 0; ///< PodGroup scheduling cycles run (gates on; counted by the loop)
};

class GangTracker
{
public:
    void jobArrived(uint32_t job, SimTime now, int32_t minCount);
    /// A pod joined the hierarchy tracked as unit `unit` (an id apart from every job's). Its
    /// first member (again, after all had gone) makes the hierarchy arrive.
    void treeMemberAdded(uint32_t unit, SimTime now, std::shared_ptr<const TreeQuorum> quorum);
    /// A pod of the hierarchy ended or was deleted (after memberEnded if it ran): with its last
    /// member the hierarchy's job ends.
    void treeMemberGone(uint32_t unit, SimTime now);
    /// A member was bound holding `devices` devices. Returns the members whose work starts now:
    /// none while fewer than minCount run (a hierarchy: while its quorum is not bound), all bound
    /// members when this one completes the gang, just this one once the job has started.
    /// `group`: the key of a hierarchy member's PodGroup.
    std::vector<uint32_t> memberBound(
        uint32_t job, uint32_t pod, SimTime now, int32_t devices, const std::string& group = {});
    /// The gang's minCount changed (PodGroupMinCount). Returns the members whose work starts now:
    /// all bound members when a smaller minCount completes a gang that had not started.
    std::vector<uint32_t> setMinCount(uint32_t job, int32_t minCount, SimTime now);
    /// A 1.35 gang's member held `devices` devices at Permit, unbound, from `since` to `until`
    /// (scheduling_loop_permit.h): idle device time as well.
    void heldAtPermit(uint32_t job, SimTime since, SimTime until, int32_t devices);
    /// A member ended (any reason) at `now`; the idle time of a member that never worked counts.
    void memberEnded(uint32_t job, uint32_t pod, SimTime now, const std::string& group = {});
    void jobEnded(uint32_t job, SimTime now);
    bool tracks(uint32_t job) const { return m_jobs.count(job) != 0; }
    /// A grouped job (or hierarchy) has arrived: the run has gang figures and series.
    bool any() const { return m_summary.jobs > 0; }
    /// Now: the jobs (and hierarchies) that arrived and have not started.
    int64_t notStarted() const;
    /// Now: the devices held by the bound members of jobs that have not started (the series of
    /// the idle device-hours; a 1.35 gang's members waiting at Permit are the caller's to add).
    int64_t idleDevices() const;
    /// Closes the idle time of members still waiting at `end` and returns the summary.
    GangSummary finish(SimTime end);

private:
    struct Waiting
    {
        uint32_t pod;
        SimTime since;
        int32_t devices;
    };
    struct Job
    {
        SimTime arrival = 0;
        int32_t minCount = 1;
        int32_t running = 0;
        bool started = false;
        std::vector<Waiting> waiting;
        /// A hierarchy's: its quorum, its bound pods per PodGroup, and its members.
        std::shared_ptr<const TreeQuorum> tree;
        std::map<std::string, int32_t> boundByGroup;
        int32_t members = 0;
        bool complete() const { return tree ? tree->holds(boundByGroup) : running >= minCount; }
    };
    void idle(const Waiting& w, SimTime until);
    /// The job's gang is complete now: its waiting members start.
    std::vector<uint32_t> start(Job& j, SimTime now);

    std::unordered_map<uint32_t, Job> m_jobs;
    std::vector<double> m_toStart;
    std::vector<double> m_neverStarted; ///< waits of jobs that ended before they started
    std::vector<double> m_toComplete; ///< arrival to the end, per job that ended
    double m_idleDeviceSeconds = 0;
    GangSummary m_summary;
};

} // namespace drasim::sim
