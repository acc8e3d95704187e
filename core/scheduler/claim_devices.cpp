// SPDX-License-Identifier: Apache-2.0
// The general claim measure (gpushare/device_fragmentation.h) on the scheduler's cluster: a
// node's devices of the target's classes as holders of capacity (counter sets, shareable devices,
// whole devices), which typical request each device serves, and the fgd score of a pod with such
// claims.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/allocator/capacity.h"
#include "core/scheduler/claim_scoring.h"
#include "core/scheduler/claim_scoring_impl.h"

namespace drasim::scheduler {

Cluster::Impl::ClaimScoring::KeySets Cluster::Impl::ClaimScoring::keySets(
    Impl& d, const gpushare::MeasureKeys& keys)
{
    KeySets sets;
    for (const std::string& name : keys.classes) {
        auto it = d.classes.find(name);
        sets.classes.push_back(it == d.classes.end() ? kNoSet : d.selectors.setFor(it->second, {}));
    }
    for (const gpushare::MeasureKeys::Request& r : keys.requests) {
        auto it = d.classes.find(r.shape.deviceClass);
        if (it == d.classes.end()) {
            sets.requests.push_back(kNoSet);
            sets.requestClasses.push_back(nullptr);
            continue;
        }
        std::vector<api::DeviceSelector> selectors;
        for (const std::string& expression : r.shape.selectors)
            selectors.push_back({ expression, {} });
        sets.requests.push_back(d.selectors.setFor(it->second, selectors));
        sets.requestClasses.push_back(&it->second);
    }
    return sets;
}

namespace {

/// An attribute's value as text, its type first so that 1 and "1" differ; "" when absent.
std::string alignValue(const api::DeviceAttribute* a)
{
    if (!a)
        return {};
    switch (a->type) {
    case api::DeviceAttribute::Type::Int:
        return "i:" + std::to_string(a->intValue);
    case api::DeviceAttribute::Type::Bool:
        return a->boolValue ? "b:true" : "b:false";
    case api::DeviceAttribute::Type::Version:
        return "v:" + a->stringValue;
    case api::DeviceAttribute::Type::String:
        break;
    }
    return "s:" + a->stringValue;
}

/// Whether a device allocated whole has every capacity the request asks for.
bool wholeDeviceHolds(const api::Device& device, const gpushare::RequestShape& r)
{
    for (const auto& [name, milli] : r.capacityMilli) {
        auto it = device.capacity.find(name);
        if (it == device.capacity.end() || it->second.value.milliValue() < milli)
            return false;
    }
    return true;
}

} // namespace

/// Builds one node's NodeDevices pool by pool.
class Cluster::Impl::ClaimScoring::NodeDevicesBuilder
{
public:
    NodeDevicesBuilder(Impl& d, const gpushare::MeasureKeys& keys, const KeySets& sets)
        : m_d(d)
        , m_keys(keys)
        , m_sets(sets)
    { }

    void addPool(const allocator::NodePool& pool)
    {
        m_counterDims.clear();
        m_left = pool.counterSets.empty() ? ClaimCounters {} : availableCounters(pool, m_d.state);
        m_pool = &pool;
        for (const allocator::DeviceEntry& e : pool.devices)
            if (e.nodeOk)
                addDevice(e);
    }

    gpushare::NodeDevices take() { return std::move(m_node); }

private:
    void addDevice(const allocator::DeviceEntry& e)
    {
        uint64_t classes = 0;
        for (size_t c = 0; c < m_sets.classes.size() && c < gpushare::kMaxMeasureClasses; ++c)
            if (m_sets.classes[c] != kNoSet
                && m_d.selectors.verdict(m_sets.classes[c], e) == allocator::Verdict::True)
                classes |= uint64_t(1) << c;
        if (classes == 0)
            return;
        gpushare::NodeDevices::Device dev;
        dev.classes = classes;
        dev.multi = e.multi;
        dev.held = m_d.state.dedicated(e.id);
        const size_t index = m_node.devices.size();
        m_capacityDims.clear(); // a shareable partition's capacity is its counters'
        if (!e.device->consumesCounters.empty())
            dev.holder = counterHolder(e, dev);
        else if (e.multi)
            dev.holder = shareHolder(e);
        else
            dev.holder = newHolder(int32_t(index));
        m_node.holders[dev.holder].classes |= classes;
        serve(e, dev);
        for (const std::string& attribute : m_keys.alignAttributes)
            dev.align.push_back(
                alignValue(allocator::lookupAttribute(*e.device, *m_pool->driver, attribute)));
        m_node.devices.push_back(std::move(dev));
    }

    uint32_t newHolder(int32_t wholeDevice)
    {
        gpushare::NodeDevices::Holder h;
        h.dimBegin = h.dimEnd = uint32_t(m_node.total.size());
        h.wholeDevice = wholeDevice;
        m_node.holders.push_back(h);
        return uint32_t(m_node.holders.size() - 1);
    }

    void addDim(uint32_t holder, const Quantity& total, const Quantity& left)
    {
        m_node.total.push_back(total.milliValue());
        m_node.left.push_back(left.milliValue());
        m_node.holders[holder].dimEnd = uint32_t(m_node.total.size());
    }

    /// The holder of a counter set (made on first use, one dimension per counter), and the
    /// device's consumption as dimensions. A shareable device already in use charged its counters.
    uint32_t counterHolder(const allocator::DeviceEntry& e, gpushare::NodeDevices::Device& dev)
    {
        uint32_t first = 0;
        for (size_t i = 0; i < e.device->consumesCounters.size(); ++i) {
            const api::DeviceCounterConsumption& c = e.device->consumesCounters[i];
            auto [it, added] = m_counterDims.try_emplace(c.counterSet);
            if (added) {
                const uint32_t holder = newHolder(-1);
                it->second.first = holder;
                for (const api::CounterSet* set : m_pool->counterSets) {
                    if (set->name != c.counterSet)
                        continue;
                    const auto& left = m_left[set->name];
                    for (const auto& [name, total] : set->counters) {
                        it->second.second[name] = uint32_t(m_node.total.size());
                        auto l = left.find(name);
                        addDim(holder, total, l == left.end() ? total : l->second);
                    }
                }
            }
            if (i == 0)
                first = it->second.first;
            if (e.multi && m_d.state.inUse(e.id))
                continue;
            for (const auto& [name, amount] : c.counters) {
                auto dim = it->second.second.find(name);
                if (dim == it->second.second.end())
                    dev.held = true; // a counter the set lacks: the device can never be taken
                else
                    dev.counters.push_back({ dim->second, amount.milliValue() });
            }
        }
        return first;
    }

    /// A shareable device's own holder: one dimension per capacity, less what its shares took.
    uint32_t shareHolder(const allocator::DeviceEntry& e)
    {
        const uint32_t holder = newHolder(-1);
        const std::map<std::string, Quantity>* consumed = m_d.state.consumed(e.id);
        for (const auto& [name, cap] : e.device->capacity) {
            m_capacityDims[name] = uint32_t(m_node.total.size());
            Quantity left = cap.value;
            if (consumed)
                if (auto it = consumed->find(name); it != consumed->end())
                    left = left.sub(it->second);
            addDim(holder, cap.value, left);
        }
        return holder;
    }

    /// Which requests the device serves, and what a shareable device gives each.
    void serve(const allocator::DeviceEntry& e, gpushare::NodeDevices::Device& dev)
    {
        const size_t n = m_keys.requests.size();
        dev.serves.assign(n, 0);
        if (dev.multi)
            dev.capacity.resize(n);
        for (size_t r = 0; r < n; ++r) {
            const uint32_t set = m_sets.requests[r];
            if (set == kNoSet || m_d.selectors.verdict(set, e) != allocator::Verdict::True)
                continue;
            const gpushare::RequestShape& shape = m_keys.requests[r].shape;
            if (!dev.multi) {
                dev.serves[r] = wholeDeviceHolds(*e.device, shape);
                continue;
            }
            api::CapacityRequirements asked;
            for (const auto& [name, milli] : shape.capacityMilli)
                asked.requests[name] = Quantity::fromMilli(milli);
            allocator::Consumption consumption;
            if (!allocator::capacityConsumption(*e.device, shape.capacityMilli.empty() ? nullptr : &asked,
                    m_d.options.draFractionalCapacityRange, consumption))
                continue;
            dev.serves[r] = 1;
            for (const auto& [name, amount] : consumption)
                if (auto it = m_capacityDims.find(*name); it != m_capacityDims.end())
                    dev.capacity[r].push_back({ it->second, amount.milliValue() });
        }
    }

    Impl& m_d;
    const gpushare::MeasureKeys& m_keys;
    const KeySets& m_sets;
    const allocator::NodePool* m_pool = nullptr;
    ClaimCounters m_left;
    /// Counter set -> (holder, counter -> dimension), for the pool being read.
    std::map<std::string, std::pair<uint32_t, std::map<std::string, uint32_t>>> m_counterDims;
    std::map<std::string, uint32_t> m_capacityDims; ///< of the shareable device being read
    gpushare::NodeDevices m_node;
};

gpushare::NodeDevices Cluster::Impl::ClaimScoring::nodeDevices(
    Impl& d, uint32_t idx, const gpushare::MeasureKeys& keys, const KeySets& sets)
{
    NodeDevicesBuilder builder(d, keys, sets);
    for (const allocator::NodePool& pool : d.viewOf(idx).pools)
        if (!pool.invalid)
            builder.addPool(pool);
    return builder.take();
}

gpushare::ClaimShape Cluster::Impl::ClaimScoring::podRequests(const Cycle& cycle)
{
    gpushare::ClaimShape shape;
    int group = 0;
    for (const ClaimState* c : cycle.toAllocate)
        addClaimRequests(c->claim.spec, shape, group);
    gpushare::normalizeShape(shape);
    return shape;
}

void Cluster::Impl::ClaimScoring::fillGeneralScores(
    Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible, std::vector<ScoreInputs>& inputs)
{
    gpushare::MeasureKeys keys = *d.options.claimTarget->general;
    const gpushare::MeasureKeys::Claim pod = keys.add(podRequests(cycle), 1.0);
    if (pod.first == pod.end)
        return; // no device of the target's classes: the GPU-sharing score stands
    const KeySets sets = keySets(d, keys);
    for (size_t i = 0; i < feasible.size(); ++i)
        inputs[i].claimScore = gpushare::deviceFgdScore(nodeDevices(d, feasible[i], keys, sets), keys, pod);
}

std::map<std::string, gpushare::ClassFragment> Cluster::Impl::ClaimScoring::generalFragmentation(Impl& d)
{
    const gpushare::MeasureKeys& keys = *d.options.claimTarget->general;
    const KeySets sets = keySets(d, keys);
    std::vector<gpushare::NodeDevices> nodes;
    nodes.reserve(d.nodes.size());
    uint64_t installed = 0;
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx) {
        nodes.push_back(nodeDevices(d, idx, keys, sets));
        for (const gpushare::NodeDevices::Holder& h : nodes.back().holders)
            installed |= h.classes;
    }
    std::map<std::string, gpushare::ClassFragment> out = gpushare::clusterDeviceFragment(nodes, keys);
    for (size_t c = 0; c < keys.classes.size(); ++c)
        if (installed >> c & 1)
            out.try_emplace(keys.classes[c]);
    return out;
}

} // namespace drasim::scheduler
