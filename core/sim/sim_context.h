// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/sim/built_pods.h"
#include "core/sim/cluster_port.h"
#include "core/sim/event_queue.h"
#include "core/sim/failure_metrics.h"
#include "core/sim/preemption_metrics.h"
#include "core/sim/run_recorder.h"
#include "core/sim/scheduling_queue.h"
#include "core/sim/sim_metrics.h"
#include "core/sim/simulator.h"

namespace drasim::sim {

constexpr uint32_t kNone = UINT32_MAX;

/// activeQ (and backoffQ) entries with this bit set are PodGroups (the rest: the job slot), not pods.
constexpr uint32_t kGroupEntry = 0x80000000u;

/// Where a pod is: a free slot, activeQ, backoffQ, parked as unschedulable, or bound. Grouped: a
/// member of a PodGroup waiting for its group's cycle (the group is queued, not the pod).
/// Where a pod is. Foreign: pending and never queued, its schedulerName being another scheduler's
/// (no profile of the configuration has it). For a member of a Kubernetes 1.35 gang
/// (SimOptions::permitGangs): Gated, refused by the gang plugin's PreEnqueue (fewer than minCount
/// members exist); Waiting, assumed on its node and waiting at Permit for its gang's quorum (it
/// holds the node's resources and its devices, unbound).
enum class PodState : uint8_t { Free, Active, Backoff, Parked, Running, Grouped, Foreign, Gated, Waiting };

struct SimPod
{
    uint64_t serial = 0; ///< unique per pod ever created; also its queue order
    /// A later queue order, when one was given (a 1.35 gang member rejected at Permit is re-added
    /// with a new timestamp); a slot's next pod has a larger serial, so the larger of the two counts.
    uint64_t queueOrder = 0;
    PodState state = PodState::Free;
    bool representative = false;
    uint32_t job = kNone;
    uint32_t task = 0;
    uint32_t group = 0;
    int32_t priority = 0;
    int32_t attempts = 0;
    uint32_t reason = kNone; ///< last unschedulable reason id
    SimTime created = 0;
    SimTime lastAttempt = 0;
    SimTime backoffUntil = -1; ///< expiry of its current stay in backoffQ (stale-event check)
    SimTime bound = 0;
    SimTime evictAt = -1; ///< pending TaintEviction event, -1 when none
    SimTime nodeEvictAt = -1; ///< pending NodeTaintEviction event, -1 when none
    SimTime terminatingUntil = -1; ///< a preemption victim: the end of its grace period
    /// Its Job counted it failed (and replaced it) when it was deleted, before it ended.
    bool failureCounted = false;
    int32_t builtSlot = -1; ///< where BuiltPods keeps its api::Pod (built_pods.h)
    int32_t devices = 0; ///< DRA devices its binding allocated
    SimTime workStart = -1; ///< when it started working, -1 while it does not work
    double workBase = 0; ///< seconds of work a checkpoint had saved when it started
    std::string key; ///< namespace/name
    std::string node;
    std::vector<std::string> claims; ///< claims reserved for it (device accounting)
};

struct TaskState
{
    int32_t active = 0;
    int32_t succeeded = 0;
    int32_t created = 0; ///< pods created so far (names)
    int32_t pendingDeps = 0; ///< pipeline: upstream tasks not yet succeeded
    std::vector<uint32_t> dependents;
    /// Work (seconds) that failed pods had saved at their last checkpoint, waiting for a
    /// replacement to resume it (checkpointInterval).
    std::vector<double> saved;
    uint32_t priorityClass = 0; ///< PreemptionMetrics::classIndex of its pods' class
};

/// A job's PodGroup as the 1.37 scheduling queue holds it: the queue entity instead of its pods.
struct GroupState
{
    /// Gated: PreEnqueue refuses it (fewer than minCount members exist); Queued: in activeQ;
    /// Backoff: waiting out its backoff; Parked: unschedulable until capacity is freed.
    enum class State : uint8_t { Gated, Queued, Backoff, Parked };
    State state = State::Gated;
    GroupPolicy policy;
    int32_t priority = 0;
    uint64_t order = 0; ///< queue order: the serial its first member got
    int32_t attempts = 0;
    SimTime lastAttempt = 0;
    SimTime backoffUntil = -1;
    uint32_t reason = kNone; ///< last unschedulable reason id
    std::string lastMessage; ///< the last cycle's message when it was not scheduled
    /// What its members' pod events say of it (run_recorder.h); replaced when a cycle keeps
    /// another topology domain.
    std::shared_ptr<const PodEventGroup> facts;
    std::string lastPreemption; ///< and what workload-aware preemption said after it ("" if untried)
    /// A cycle of it preempted: its members may be nominated, which their next cycles read.
    bool preempted = false;
    /// Parked: the plugins that rejected its members in the last cycle (the union: a change that
    /// may help any member moves the group, KEP-4671 "Retries"); 0 when none is known.
    scheduler::PluginSet rejectedBy = 0;
    std::vector<uint32_t> members; ///< pod slots, pending and running, in creation order
};

/// A job's gang as Kubernetes 1.35's GangScheduling plugin and workload manager hold it
/// (SimOptions::permitGangs): its members are queued as plain pods; those Reserve assumed wait at
/// Permit until assumed and bound members reach minCount (scheduling_loop_permit.h).
struct PermitGang
{
    std::string key; ///< the gang instance: namespace/job name (the pods' podGroupReplicaKey)
    int32_t minCount = 1;
    /// The gang as its members' Created and Scheduled events name it, for views that show a gang
    /// as one (the desktop).
    std::shared_ptr<const PodEventGroup> facts;
    /// The group's scheduling deadline, made at its first wait and again once passed; -1 before.
    SimTime deadline = -1;
    struct Waiter
    {
        uint32_t pod = 0;
        uint64_t serial = 0;
        SimTime since = 0; ///< when it started waiting (its timer is deadline - since)
        BindOutcome reservation; ///< what its cycle reserved, bound when the gang is allowed
    };
    std::vector<Waiter> waiting; ///< in the order they reached Permit
    int32_t timeouts = 0; ///< deadlines that passed with members waiting
    SimTime lastTimeout = -1;
    int64_t lastTimedOut = 0; ///< members rejected at the last timeout
};

/// A job's JobSpec::kind, read once when it arrives: the controller asks at every pod the job
/// creates and ends, where comparing the strings each time was a measurable share of a run.
enum class JobKind : uint8_t { Job, Service, PipelineRun };

/// The kind of `spec` (one of workload.h's three kinds).
JobKind jobKindOf(const workload::JobSpec& spec);

struct JobState
{
    uint64_t serial = 0;
    bool live = false;
    JobKind kind = JobKind::Job; ///< spec.kind
    /// The job ended while preemption victims of it were still terminating: the slot stays
    /// taken (not live) until the last of them is gone.
    bool draining = false;
    workload::JobSpec spec;
    uint32_t workload = 0;
    SimTime arrival = 0;
    int32_t failures = 0;
    /// The Job controller's backoff record: failed pods since the last success and when the
    /// latest of them failed; replacements wait backoff(failuresAfterLastSuccess) after it.
    int32_t failuresAfterLastSuccess = 0;
    SimTime lastFailure = 0;
    SimTime syncAt = -1; ///< pending delayed sync (PodCreate event) of a kind "job", -1 when none
    std::optional<GroupState> group; ///< its pods form a PodGroup (SimOptions::podGroups)
    std::optional<PermitGang> permitGang; ///< its pods form a 1.35 gang (SimOptions::permitGangs)
    int32_t tasksDone = 0;
    std::vector<TaskState> tasks;
    std::vector<uint32_t> pods; ///< live pod slots
};

/// The job slots: a slot stays where it is as the table grows (a JobState is large, and moving
/// every one of them each time the table doubled was a sixth of the cost of a run whose jobs all
/// arrive at once). Blocks of 64 slots: std::deque keeps one so large an element per block, and
/// each of the many lookups of a run walked its iterator arithmetic out of line.
class JobTable
{
public:
    JobState& operator[](size_t i) { return m_blocks[i / kBlock][i % kBlock]; }
    const JobState& operator[](size_t i) const { return m_blocks[i / kBlock][i % kBlock]; }
    size_t size() const { return m_size; }
    /// Makes slot i a default JobState again. Destroyed and built anew in place: assigning a
    /// default JobState over it built a whole one more, moved it in member by member and
    /// destroyed it, for every job of a run.
    void reset(size_t i)
    {
        JobState& slot = (*this)[i];
        std::destroy_at(&slot);
        std::construct_at(&slot);
    }
    /// A new slot at the end, as a default JobState.
    void emplace_back()
    {
        if (m_size == m_blocks.size() * kBlock)
            m_blocks.push_back(std::make_unique<JobState[]>(kBlock));
        ++m_size;
    }

    template <class Table, class Value> class Iterator
    {
    public:
        Iterator(Table& table, size_t i)
            : m_table(&table)
            , m_i(i)
        { }
        Value& operator*() const { return (*m_table)[m_i]; }
        Iterator& operator++()
        {
            ++m_i;
            return *this;
        }
        bool operator==(const Iterator& other) const { return m_i == other.m_i; }

    private:
        Table* m_table;
        size_t m_i;
    };
    auto begin() { return Iterator<JobTable, JobState>(*this, 0); }
    auto end() { return Iterator<JobTable, JobState>(*this, m_size); }
    auto begin() const { return Iterator<const JobTable, const JobState>(*this, 0); }
    auto end() const { return Iterator<const JobTable, const JobState>(*this, m_size); }

private:
    static constexpr size_t kBlock = 64;
    std::vector<std::unique_ptr<JobState[]>> m_blocks;
    size_t m_size = 0;
};

/// initial * 2^(attempts-1), capped at max; 0 before the first attempt (kube-scheduler's pod
/// backoff and the Job controller's pod-failure backoff both grow this way).
SimTime backoffFor(int32_t attempts, SimTime initial, SimTime max);

/// Appends `n` in decimal to `out` (pod names and uids: without the temporary string of
/// std::to_string, for every pod).
void appendDecimal(std::string& out, uint64_t n);

/// What every part of the simulation shares: the clock, the event queue, the pod and job tables,
/// the metrics, the recorders and the cluster port. The parts (job_controller.h,
/// scheduling_loop.h, eviction_controller.h, event_injector.h, sampler.h) keep their own state
/// beside it and call each other directly, as simulator.cpp wires them.
struct SimContext
{
    SimContext(ClusterPort& c, SimOptions o)
        : cluster(c)
        , options(std::move(o))
    { }

    ClusterPort& cluster;
    const SimOptions options;
    std::vector<RunRecorder*> recorders;
    EventQueue events;
    SimMetrics metrics;
    PreemptionMetrics preemption;
    FailureMetrics failures;
    SimTime now = 0;

    std::vector<SimPod> pods; ///< slots, reused (pods are addressed by slot and serial)
    std::vector<uint32_t> freePods;
    std::unordered_map<std::string, uint32_t> podByKey;
    uint64_t nextPodSerial = 1;
    /// Pods by creation (slot, serial), oldest first; entries of pods no longer pending are
    /// dropped when they reach the front, so the oldest pending pod costs O(1) per pod created.
    std::deque<std::pair<uint32_t, uint64_t>> creationOrder;

    JobTable jobs; ///< slots, reused
    std::vector<uint32_t> freeJobs;
    uint64_t nextJobSerial = 1;

    /// Tells the recorders of a pod transition (when pod events are wanted and anyone listens).
    void emit(PodEventType type, const SimPod& pod, const std::string& message = {},
        const BindOutcome* bound = nullptr)
    {
        if (options.podEvents && !recorders.empty())
            emitPodEvent(type, pod, message, bound);
    }
    void addNode(std::shared_ptr<const NodeSpec> spec, const std::string& pool);
    uint32_t allocPod();
    void releasePodSlot(uint32_t id);
    /// The api::Pod the scheduler is given, built from its job's template on demand.
    api::Pod buildPod(const SimPod& p) const;
    /// The same, built over `pod`: a default Pod or one built by this before (whatever it does
    /// not set is as a default Pod has it), so its storage is reused.
    void buildPodInto(const SimPod& p, api::Pod& pod) const;
    /// The same, where `from` is the template `pod` was built from (null: unknown). A Pod built
    /// from the pod's own template keeps its spec and annotations, which come from the template
    /// alone. `from` is set to the pod's template.
    void buildPodInto(
        const SimPod& p, api::Pod& pod, std::shared_ptr<const api::PodTemplateSpec>& from) const;
    /// The same for the pod's scheduling cycle, kept for its next one (built_pods.h). Valid until
    /// the next call.
    const api::Pod& podForCycle(SimPod& p)
    {
        const api::PodTemplateSpec* tmpl = jobs[p.job].spec.tasks[p.task].pod.get();
        return builtPods.get(p.serial, p.builtSlot, tmpl,
            [&](api::Pod& pod, std::shared_ptr<const api::PodTemplateSpec>& from) {
                buildPodInto(p, pod, from);
            });
    }
    /// The pod is bound or gone: no cycle of it needs its kept Pod any more.
    void releaseBuiltPod(SimPod& p) { builtPods.release(p.serial, p.builtSlot); }
    BuiltPods builtPods;
    uint32_t priorityClassOf(const SimPod& p) const { return jobs[p.job].tasks[p.task].priorityClass; }
    /// The pod's queue entry: its priority, then its creation serial, or the later place a
    /// requeue gave it (SimPod::queueOrder).
    QueueKey keyOf(uint32_t id) const
    {
        return QueueKey { pods[id].priority, std::max(pods[id].serial, pods[id].queueOrder), id };
    }
    /// The slot of a bound pod by namespace/name, kNone when it is not running.
    uint32_t runningPod(const std::string& key) const;

private:
    void emitPodEvent(
        PodEventType type, const SimPod& pod, const std::string& message, const BindOutcome* bound);
};

} // namespace drasim::sim
