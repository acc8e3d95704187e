// SPDX-License-Identifier: Apache-2.0
#pragma once

// Replays a run's pod events to answer "what was the cluster doing at time t": which pods ran
// where, which were pending, and which devices each running pod held. Plain C++ (no Qt), so the
// timeline, the topology view and tests share one answer. It holds no scheduling logic: every
// fact comes from the recorded events.

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/sim/node_conditions.h"
#include "core/sim/run_recorder.h"
#include "core/sim/sim_time.h"

namespace drasim::ui {

/// One device of a node-local pool as a claim's allocation names it.
struct DeviceKey
{
    std::string driver;
    std::string pool;
    std::string device;
    auto operator<=>(const DeviceKey&) const = default;
};

/// A device a pod's claim holds.
struct HeldBy
{
    std::string pod; ///< namespace/name
    std::string claim; ///< namespace/name of the ResourceClaim ("" when the event did not say)
    bool operator==(const HeldBy&) const = default;
};

/// One recorded event, with the devices a binding allocated (empty when the run did not record them).
/// An event the scenario injected into the cluster (a node failure, a taint) is one too: its kind
/// is set, node names what it acts on and message the rest; it changes no pod by itself.
struct ReplayEvent
{
    sim::SimTime time = 0;
    std::string kind; ///< an injected event's type ("NodeFailure"); empty for a pod event
    sim::PodEventType type = sim::PodEventType::Created;
    std::string pod;
    std::string workload;
    std::string node;
    std::string message;
    std::vector<std::pair<std::string, DeviceKey>> devices; ///< (claim, device) for Scheduled
    /// Created and Scheduled, for a member of a PodGroup: its group as sim::PodEvent names it
    /// (Scheduled: with the domain the group was placed in).
    std::shared_ptr<const sim::PodEventGroup> group;
};

/// A PodGroup with members in the cluster at some time, as its members' events tell it.
struct ReplayGroup
{
    std::string key; ///< namespace/name of the PodGroup
    int32_t minCount = 0; ///< the gang's minCount; 0 for a basic policy
    std::string topologyKey; ///< "" when no topology constrains it
    /// The domain ("key=value") where its last group cycle to bind members placed them; "" when
    /// none did or no topology constrains it.
    std::string domain;
    std::vector<std::string> members; ///< running or pending, in creation order
};

/// What the cluster looked like just after every event at or before t.
struct ReplayState
{
    sim::SimTime time = 0;
    std::map<std::string, std::string> running; ///< pod → node
    std::map<std::string, std::string> pending; ///< pod → last reason ("" before any attempt)
    std::map<DeviceKey, HeldBy> holders; ///< device → the pod and claim holding it
    std::map<std::string, std::vector<DeviceKey>> claimDevices; ///< claim → its devices, in order
    /// claim → the pod it was allocated for (devices shared by several claims name one holder)
    std::map<std::string, std::string> claimPods;
    std::map<std::string, int> podsOnNode; ///< node → running pods
    /// Running pods chosen as preemption victims → the Preempted event's message ("preempted by
    /// default/infer (priority 100000) on node n1"): they hold their node until evicted.
    std::map<std::string, std::string> preempted;
    /// Nodes down, draining or with tainted devices (empty when the replay has no conditions).
    std::map<std::string, sim::NodeCondition> nodes;
    /// PodGroups with a member running or pending, and the group of each such member.
    std::map<std::string, ReplayGroup> groups;
    std::map<std::string, std::string> podGroups; ///< pod → its PodGroup
    /// Pods ended by t, as the run's summary counts them: succeeded, failed, evicted.
    int succeeded = 0;
    int failed = 0;
    int evicted = 0;

    /// Devices held on one node (pool name = node name for node-local drivers).
    int heldOnNode(const std::string& node) const;
};

class PodReplay
{
public:
    /// Appends one recorded event; events arrive in simulated-time order (an event earlier than
    /// the last is placed after the events of its own time, keeping the recorded order).
    void append(ReplayEvent event);
    void append(const sim::PodEvent& event);
    void setEndTime(sim::SimTime end) { m_end = end; }
    /// What the run's injected events did to the nodes: their events up to endTime() join the
    /// list, each before the pod events of its time (the engine announces an event before the pod
    /// events it causes), and every state carries the nodes' conditions.
    void setConditions(std::shared_ptr<const sim::NodeConditions> conditions);
    const sim::NodeConditions* conditions() const { return m_conditions.get(); }

    const std::vector<ReplayEvent>& events() const { return m_events; }
    /// The end of the run (its duration when known, else the last event).
    sim::SimTime endTime() const;
    /// First event strictly after t, or -1.
    sim::SimTime nextEventTime(sim::SimTime t) const;
    /// Last event strictly before t, or -1.
    sim::SimTime previousEventTime(sim::SimTime t) const;
    /// Index of the first event after t (the number of events at or before t).
    size_t eventsUpTo(sim::SimTime t) const;

    /// The state after every event at or before t.
    ReplayState stateAt(sim::SimTime t) const;

    /// Running and pending pod counts at `points` evenly spaced times from 0 to endTime()
    /// (both included), in one pass: the outline of the whole run for a scrubber.
    struct Counts
    {
        sim::SimTime time = 0;
        int running = 0;
        int pending = 0;
    };
    std::vector<Counts> countsOverTime(int points) const;
    /// The most pods running and pending at once, each counted once every event of an instant
    /// is done, as the run's summary counts its peak of pending pods (SimMetrics::settled).
    struct Peaks
    {
        int running = 0;
        int pending = 0;
    };
    Peaks peaks() const;
    /// Recorded pod events, without the injected events that joined them.
    size_t podEventCount() const;

private:
    std::vector<ReplayEvent> m_events;
    sim::SimTime m_end = -1;
    std::shared_ptr<const sim::NodeConditions> m_conditions;
};

/// Turns a recorded pod event into a replay event (with its devices when the recorder kept them).
ReplayEvent toReplayEvent(const sim::PodEvent& event);

} // namespace drasim::ui
