// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a scenario's injected events do to its nodes over a run, read from the scenario alone:
// which nodes are down, cordoned by a node taint, or have tainted devices at any time, and how
// many nodes and devices are up. The engine applies the same events (event_injector.cpp); this
// is the reader's side, for views and reports that show a run's failures. It decides nothing a
// run depends on.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/sim/simulator.h"

namespace drasim::sim {

/// One node's condition at one moment, as the injected events left it.
struct NodeCondition
{
    bool down = false; ///< failed (NodeFailure until NodeReturn) or its pool removed
    bool removed = false; ///< down for good: its pool was removed (RemoveNodePool)
    std::vector<api::Taint> nodeTaints; ///< NodeTaint until NodeUntaint, in the order added
    /// Devices with a taint in force (DeviceTaint, or a DeviceTaintRule selecting them), as
    /// "driver/device" with the device named as its ResourceSlice publishes it; sorted.
    std::vector<std::string> taintedDevices;

    /// A node taint keeps new pods off it (NoSchedule) or evicts them (NoExecute): the node is
    /// being drained, as `kubectl drain` cordons a node before it evicts.
    bool draining() const;
    bool tainted() const { return !taintedDevices.empty(); }
};

/// Nodes and devices up from `time` until the next point.
struct CapacityPoint
{
    SimTime time = 0;
    int64_t nodesUp = 0;
    int64_t devicesUp = 0;
    std::map<std::string, int64_t> devicesUpByModel; ///< the model as the metrics name it
    bool operator==(const CapacityPoint&) const = default;
};

class NodeConditions
{
public:
    NodeConditions() = default;
    /// pools: the nodes at time 0; events: the scenario's, in time order; until: the end of the
    /// run (later events are never applied).
    NodeConditions(const std::vector<std::shared_ptr<const NodePool>>& pools,
        const std::vector<InjectedEvent>& events, SimTime until);

    /// Every node not plainly up after the events at or before t: down, draining or tainted.
    std::map<std::string, NodeCondition> at(SimTime t) const;
    /// The events applied, as run recorders are told of them, in time order.
    const std::vector<ClusterEvent>& events() const { return m_announced; }
    /// Nodes and devices up at time 0 and after every event that changes them.
    const std::vector<CapacityPoint>& capacity() const { return m_capacity; }
    /// The capacity in force at t.
    CapacityPoint capacityAt(SimTime t) const;

    /// A device as a node's slices publish it.
    struct Device
    {
        std::string driver;
        std::string pool;
        std::string name;
        std::string model;
    };

private:
    struct Live;
    void apply(Live& live, const InjectedEvent& e) const;

    std::map<std::string, std::vector<Device>> m_devices; ///< node → its devices
    std::map<std::string, std::vector<std::string>> m_poolNodes; ///< node pool → its nodes
    std::vector<std::string> m_initial; ///< nodes up at time 0
    std::vector<InjectedEvent> m_events; ///< those applied
    std::vector<ClusterEvent> m_announced;
    std::vector<CapacityPoint> m_capacity;
};

} // namespace drasim::sim
