// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/inventory.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "core/allocator/node_match.h"

namespace drasim::allocator {

namespace {

// The key to look a device up by, written into one buffer per thread: every binding and every
// completion looks its devices up, and a key of a real driver's names is too long to be made
// without the heap. (Studies run simulations on several threads at once.)
const std::string& lookupKey(std::string_view driver, std::string_view pool, std::string_view device)
{
    thread_local std::string key;
    key.clear();
    key.append(driver).push_back('\0');
    key.append(pool).push_back('\0');
    key.append(device);
    return key;
}

} // namespace

DeviceId DeviceRegistry::intern(std::string_view driver, std::string_view pool, std::string_view device)
{
    const std::string& key = lookupKey(driver, pool, device);
    if (auto it = m_ids.find(key); it != m_ids.end())
        return it->second;
    m_ids.emplace(key, DeviceId(m_keys.size()));
    m_keys.push_back(DeviceKey { std::string(driver), std::string(pool), std::string(device) });
    return DeviceId(m_keys.size() - 1);
}

DeviceId DeviceRegistry::find(std::string_view driver, std::string_view pool, std::string_view device) const
{
    auto it = m_ids.find(lookupKey(driver, pool, device));
    return it == m_ids.end() ? kNoDevice : it->second;
}

std::vector<DeviceInstance> Inventory::instancesOf(const api::ResourceSlice& slice)
{
    // One block of consecutive ids per slice name; a slice republished with more devices gets a
    // new, larger block (its old ids are dropped with its verdicts anyway).
    const auto n = DeviceInstance(slice.devices.size());
    auto [it, inserted] = m_instanceBlocks.try_emplace(slice.meta.name, InstanceBlock { m_nextInstance, n });
    if (inserted) {
        m_nextInstance += n;
    } else if (it->second.size < n) {
        it->second = InstanceBlock { m_nextInstance, n };
        m_nextInstance += n;
    }
    std::vector<DeviceInstance> out(n);
    for (DeviceInstance i = 0; i < n; ++i)
        out[i] = it->second.first + i;
    return out;
}

void Inventory::setSlices(std::vector<const api::ResourceSlice*> slices)
{
    m_slices = std::move(slices);
    m_pools.clear();
    m_views.clear();
    m_ids.clear();
    m_instanceIds.clear();
    m_allDevices.clear();
    m_currentDevices.clear();
    m_localPools.clear();
    m_globalPools.clear();
    for (const auto* s : m_slices) {
        auto& p = m_pools[{ s->driver, s->pool.name }];
        p.driver = s->driver;
        p.name = s->pool.name;
        p.slices.push_back(s);
        auto& ids = m_ids[s];
        auto& instances = m_instanceIds[s];
        ids.reserve(s->devices.size());
        instances = instancesOf(*s);
        for (size_t i = 0; i < s->devices.size(); ++i) {
            const auto& d = s->devices[i];
            ids.push_back(m_registry.intern(s->driver, s->pool.name, d.name));
            DeviceEntry e;
            e.id = ids.back();
            e.instance = instances[i];
            e.device = &d;
            e.slice = s;
            e.multi = d.allowMultipleAllocations.value_or(false);
            m_allDevices.push_back(e);
        }
    }
    // The newest generation of each pool, cluster-wide: what the drivers publish now.
    std::map<std::pair<std::string_view, std::string_view>, int64_t> newest;
    for (const auto* s : m_slices) {
        auto [it, inserted] = newest.try_emplace({ s->driver, s->pool.name }, s->pool.generation);
        if (!inserted)
            it->second = std::max(it->second, s->pool.generation);
    }
    for (const auto& e : m_allDevices)
        if (e.slice->pool.generation == newest.at({ e.slice->driver, e.slice->pool.name }))
            m_currentDevices.push_back(e);
    for (const auto& [key, pool] : m_pools) {
        bool global = false;
        for (const auto* s : pool.slices) {
            if (s->nodeName) {
                auto& v = m_localPools[*s->nodeName];
                if (v.empty() || v.back() != &pool)
                    v.push_back(&pool);
            } else if (s->allNodes.value_or(false) || s->nodeSelector
                || s->perDeviceNodeSelection.value_or(false)) {
                global = true;
            }
        }
        if (global)
            m_globalPools.push_back(&pool);
    }
}

bool Inventory::deviceMatchesNode(const api::Device& d, const api::Node& node)
{
    if (d.nodeName)
        return *d.nodeName == node.meta.name;
    if (d.allNodes.value_or(false))
        return true;
    if (d.nodeSelector)
        return matchesNodeSelector(*d.nodeSelector, node);
    return false;
}

bool Inventory::sliceRelevant(const api::ResourceSlice& s, const api::Node& node)
{
    // Counter-only slices follow their own node selection here, unlike upstream v0.36.2 which
    // treats them as relevant everywhere: a pool with relevant devices picks its counter sets up
    // through the completeness re-check anyway (same outcome, addendum 3), and node views stay
    // small in clusters with thousands of partitionable GPUs.
    if (s.nodeName)
        return *s.nodeName == node.meta.name;
    if (s.allNodes.value_or(false))
        return true;
    if (s.nodeSelector)
        return matchesNodeSelector(*s.nodeSelector, node);
    if (s.perDeviceNodeSelection.value_or(false)) {
        for (const auto& d : s.devices)
            if (deviceMatchesNode(d, node))
                return true;
    }
    return false;
}

const NodeView& Inventory::view(const api::Node& node)
{
    auto it = m_views.find(node.meta.name);
    if (it != m_views.end())
        return it->second;
    return m_views.emplace(node.meta.name, build(node)).first->second;
}

NodeView Inventory::build(const api::Node& node)
{
    NodeView view;
    // Devices whose slice skips node operations only go to nodes that declare they can do
    // without them (KEP-5945; the API server clears the field while the gate is off).
    const bool skipsOk
        = std::find(node.declaredFeatures.begin(), node.declaredFeatures.end(), "DRAOptionalNodeOperations")
        != node.declaredFeatures.end();
    std::vector<const PoolSlices*> candidates = m_globalPools;
    if (auto it = m_localPools.find(node.meta.name); it != m_localPools.end())
        candidates.insert(candidates.end(), it->second.begin(), it->second.end());
    // Visit order needs pools sorted by (driver, pool name).
    std::sort(candidates.begin(), candidates.end(), [](const PoolSlices* a, const PoolSlices* b) {
        return std::tie(a->driver, a->name) < std::tie(b->driver, b->name);
    });
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (const PoolSlices* poolPtr : candidates) {
        const PoolSlices& pool = *poolPtr;
        // Step 2: among the relevant slices only the highest generation survives.
        std::vector<const api::ResourceSlice*> relevant;
        int64_t gen = -1;
        for (const auto* s : pool.slices) {
            if (!sliceRelevant(*s, node))
                continue;
            if (s->pool.generation > gen) {
                gen = s->pool.generation;
                relevant.clear();
            }
            if (s->pool.generation == gen)
                relevant.push_back(s);
        }
        if (relevant.empty())
            continue;
        // Step 3: completeness, looking at every slice of the pool when the node sees only some.
        const int64_t want = relevant.front()->pool.resourceSliceCount;
        bool incomplete = false;
        if (int64_t(relevant.size()) != want) {
            bool obsolete = false;
            int64_t sameGen = 0;
            for (const auto* s : pool.slices) {
                if (s->pool.generation > gen)
                    obsolete = true;
                else if (s->pool.generation == gen)
                    ++sameGen;
            }
            if (obsolete)
                continue;
            incomplete = sameGen != want;
        }
        NodePool np;
        np.driver = &pool.driver;
        np.name = &pool.name;
        np.incomplete = incomplete;
        std::set<const api::ResourceSlice*> relevantSet(relevant.begin(), relevant.end());
        std::vector<const api::ResourceSlice*> sameGenSlices;
        for (const auto* s : pool.slices)
            if (s->pool.generation == gen)
                sameGenSlices.push_back(s);
        // Slices of a pool are visited sorted by name (1.36 rule).
        auto byName = [](const api::ResourceSlice* a, const api::ResourceSlice* b) {
            return a->meta.name < b->meta.name;
        };
        std::stable_sort(sameGenSlices.begin(), sameGenSlices.end(), byName);

        std::set<std::string> deviceNames;
        std::set<std::string> counterSetNames;
        bool invalid = false;
        for (const auto* s : sameGenSlices) {
            const bool rel = relevantSet.count(s) > 0;
            for (const auto& cs : s->sharedCounters) {
                if (!counterSetNames.insert(cs.name).second)
                    invalid = true;
                np.counterSets.push_back(&cs);
            }
            const auto& ids = m_ids.at(s);
            const auto& instances = m_instanceIds.at(s);
            const bool perDevice = s->perDeviceNodeSelection.value_or(false);
            for (size_t i = 0; i < s->devices.size(); ++i) {
                const auto& d = s->devices[i];
                DeviceEntry e;
                e.id = ids[i];
                e.instance = instances[i];
                e.device = &d;
                e.slice = s;
                e.multi = d.allowMultipleAllocations.value_or(false);
                if (rel) {
                    e.nodeOk = (!perDevice || deviceMatchesNode(d, node))
                        && (s->skipNodeOperations.empty() || skipsOk);
                    if (!deviceNames.insert(d.name).second)
                        invalid = true;
                    if (!d.bindingConditions.empty())
                        np.bindingConditions = true;
                    view.anyMulti = view.anyMulti || e.multi;
                    np.devices.push_back(e);
                } else {
                    np.otherDevices.push_back(e);
                }
            }
        }
        // Every counter consumption must name an existing counter set and counters in it.
        auto checkConsumption = [&](const std::vector<DeviceEntry>& list) {
            for (const auto& e : list)
                for (const auto& cc : e.device->consumesCounters) {
                    auto cs = std::find_if(np.counterSets.begin(), np.counterSets.end(),
                        [&](const api::CounterSet* c) { return c->name == cc.counterSet; });
                    if (cs == np.counterSets.end()) {
                        invalid = true;
                        continue;
                    }
                    for (const auto& [name, q] : cc.counters)
                        if (!(*cs)->counters.count(name))
                            invalid = true;
                }
        };
        if (!incomplete) {
            checkConsumption(np.devices);
            checkConsumption(np.otherDevices);
        }
        np.invalid = !incomplete && invalid;
        // Upstream keeps no devices of an incomplete or invalid pool, so only usable pools are
        // moved behind for binding conditions; the others keep their place by name, which decides
        // which of them an All request reports (§3.2 step 6).
        np.bindingConditions = np.bindingConditions && !np.incomplete && !np.invalid;
        view.anyInvalid = view.anyInvalid || np.invalid;
        view.anyIncomplete = view.anyIncomplete || np.incomplete;
        view.deviceCount += np.devices.size();
        view.pools.push_back(std::move(np));
    }
    // Pools by (driver, pool name), with binding-condition pools moved behind all others.
    std::stable_partition(
        view.pools.begin(), view.pools.end(), [](const NodePool& p) { return !p.bindingConditions; });
    return view;
}

const api::DeviceAttribute* lookupAttribute(
    const api::Device& device, std::string_view driver, std::string_view qualifiedName)
{
    auto it = device.attributes.find(std::string(qualifiedName));
    if (it != device.attributes.end())
        return &it->second;
    auto slash = qualifiedName.find('/');
    if (slash == std::string_view::npos)
        return nullptr;
    if (qualifiedName.substr(0, slash) != driver)
        return nullptr;
    it = device.attributes.find(std::string(qualifiedName.substr(slash + 1)));
    return it == device.attributes.end() ? nullptr : &it->second;
}

} // namespace drasim::allocator
