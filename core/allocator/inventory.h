// SPDX-License-Identifier: Apache-2.0
#pragma once

// What devices a node can see: ResourceSlices grouped into pools, gathered per node exactly as
// the structured allocator does (§3.2 of the DRA semantics note), in the deterministic visit
// order of §3.3. Views are cached per node and rebuilt when slices change.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/resource_v1.h"

namespace drasim::allocator {

using DeviceId = uint32_t;

struct DeviceKey
{
    std::string driver;
    std::string pool;
    std::string device;
};

/// Interns (driver, pool, device) to a dense id for ever, so the allocated state survives slice
/// changes and can use flat vectors instead of string maps.
class DeviceRegistry
{
public:
    DeviceId intern(std::string_view driver, std::string_view pool, std::string_view device);
    /// UINT32_MAX when unknown.
    DeviceId find(std::string_view driver, std::string_view pool, std::string_view device) const;
    const DeviceKey& key(DeviceId id) const { return m_keys[id]; }
    size_t size() const { return m_keys.size(); }

private:
    std::unordered_map<std::string, DeviceId> m_ids;
    std::vector<DeviceKey> m_keys;
};

inline constexpr DeviceId kNoDevice = UINT32_MAX;

/// One device object of one slice: (slice name, index in the slice), interned for ever.
///
/// Decision (only the newest generation exists, addendum 5): a DeviceId names a device the way
/// upstream's DeviceID does, by (driver, pool, device name). That is the right key for whatever
/// outlives a generation or a node: the allocated state (results name devices, not slices) and
/// picks within one attempt (a node sees one generation of a pool). It is the wrong key for what
/// is learned from a device's contents: the same name in an outdated generation, or in another
/// node's slice of the same pool, is another device with other attributes. Selector verdicts and
/// CEL errors are therefore keyed by the device object.
using DeviceInstance = uint32_t;

struct DeviceEntry
{
    DeviceId id = kNoDevice;
    DeviceInstance instance = kNoDevice;
    const api::Device* device = nullptr;
    const api::ResourceSlice* slice = nullptr;
    bool nodeOk = true; ///< per-device node selection matches this node (true for ordinary slices)
    bool multi = false; ///< allowMultipleAllocations
};

struct NodePool
{
    const std::string* driver = nullptr;
    const std::string* name = nullptr;
    bool incomplete = false;
    bool invalid = false;
    bool bindingConditions = false;
    std::vector<DeviceEntry> devices; ///< relevant slices, visit order
    std::vector<DeviceEntry> otherDevices; ///< non-relevant slices of the pool: counter usage only
    std::vector<const api::CounterSet*> counterSets;
};

struct NodeView
{
    std::vector<NodePool> pools; ///< visit order
    bool anyInvalid = false;
    bool anyIncomplete = false;
    bool anyMulti = false; ///< a relevant device allows multiple allocations
    size_t deviceCount = 0;
};

class Inventory
{
public:
    explicit Inventory(DeviceRegistry& registry)
        : m_registry(registry)
    { }

    /// Replaces the slice set (pointers must stay valid until the next call) and drops cached views.
    void setSlices(std::vector<const api::ResourceSlice*> slices);
    /// Drops the cached view of one node (its labels changed).
    void forgetNode(const std::string& nodeName) { m_views.erase(nodeName); }

    const NodeView& view(const api::Node& node);
    const std::vector<const api::ResourceSlice*>& slices() const { return m_slices; }
    /// Every device of every slice, outdated generations included (nodeOk = true): whatever some
    /// node's view may contain, for whole-cluster checks that must not miss a device.
    const std::vector<DeviceEntry>& allDevices() const { return m_allDevices; }
    /// Devices of the newest generation of each pool only (a subset of allDevices()): what the
    /// cluster has now, for counting devices.
    const std::vector<DeviceEntry>& currentDevices() const { return m_currentDevices; }
    DeviceRegistry& registry() { return m_registry; }
    /// The device objects of a slice, in list order (interned on first use; slice names are
    /// unique in a cluster, so the same name and index mean the same object until it is replaced).
    std::vector<DeviceInstance> instancesOf(const api::ResourceSlice& slice);

    /// Is the slice relevant for the node (§3.2 step 1)?
    static bool sliceRelevant(const api::ResourceSlice& slice, const api::Node& node);
    static bool deviceMatchesNode(const api::Device& device, const api::Node& node);

private:
    struct PoolSlices
    {
        std::string driver;
        std::string name;
        std::vector<const api::ResourceSlice*> slices;
    };
    NodeView build(const api::Node& node);

    DeviceRegistry& m_registry;
    std::vector<const api::ResourceSlice*> m_slices;
    std::map<std::pair<std::string, std::string>, PoolSlices> m_pools;
    /// Pools with a slice local to the node (by node name), and pools with a slice that may be
    /// relevant to any node (node selector, all nodes, per-device selection): the only pools a
    /// node's view has to look at, instead of every pool of the cluster.
    std::unordered_map<std::string, std::vector<const PoolSlices*>> m_localPools;
    std::vector<const PoolSlices*> m_globalPools;
    struct InstanceBlock
    {
        DeviceInstance first = 0;
        DeviceInstance size = 0;
    };

    std::unordered_map<const api::ResourceSlice*, std::vector<DeviceId>> m_ids;
    std::unordered_map<const api::ResourceSlice*, std::vector<DeviceInstance>> m_instanceIds;
    std::unordered_map<std::string, InstanceBlock> m_instanceBlocks; ///< by slice name, kept for ever
    DeviceInstance m_nextInstance = 0;
    std::unordered_map<std::string, NodeView> m_views;
    std::vector<DeviceEntry> m_allDevices;
    std::vector<DeviceEntry> m_currentDevices;
};

/// Attribute lookup for a fully qualified name (§3.8): exact name, else the bare identifier when
/// the domain is the device's driver.
const api::DeviceAttribute* lookupAttribute(
    const api::Device& device, std::string_view driver, std::string_view qualifiedName);

} // namespace drasim::allocator
