// SPDX-License-Identifier: Apache-2.0
#include "core/sim/sim_metrics.h"

#include <algorithm>

#include "core/sim/device_model_name.h"

namespace drasim::sim {

namespace {

std::string joinKey(const std::string& driver, const std::string& pool, const std::string& device)
{
    std::string k;
    k.reserve(driver.size() + pool.size() + device.size() + 2);
    k += driver;
    k += '\0';
    k += pool;
    k += '\0';
    k += device;
    return k;
}

/// The model a device reports (deviceModelName); otherwise the driver name, so "unknown" never
/// lumps different drivers together.
std::string modelOf(const api::Device& d, const std::string& driver)
{
    return deviceModelName(d).value_or(driver);
}

/// A slice of an outdated pool generation among the node's slices: when a driver republishes a
/// pool under new slice names, the old slices' devices no longer exist (only the newest
/// generation does), so they are neither counted nor tainted.
bool outdated(const NodeSpec& spec, const api::ResourceSlice& slice)
{
    return std::any_of(spec.slices.begin(), spec.slices.end(), [&](const api::ResourceSlice& other) {
        return other.driver == slice.driver && other.pool.name == slice.pool.name
            && other.pool.generation > slice.pool.generation;
    });
}

} // namespace

uint32_t SimMetrics::Dimension::intern(const std::string& name)
{
    auto [it, inserted] = ids.emplace(name, uint32_t(total.size()));
    if (inserted) {
        total.push_back(0);
        allocated.push_back(0);
        ratioPeak.push_back(0);
        allocatedSum.push_back(0);
        upSum.push_back(0);
        installed.push_back(0);
    }
    return it->second;
}

void SimMetrics::addPool(const std::string& name, double pricePerHour)
{
    auto [it, inserted] = m_poolIds.emplace(name, uint32_t(m_pools.size()));
    if (inserted)
        m_pools.push_back(PoolRec { name, pricePerHour, 0, 0, 0 });
    else
        m_pools[it->second].price = pricePerHour;
}

void SimMetrics::addNode(std::shared_ptr<const NodeSpec> shared, const std::string& pool)
{
    const NodeSpec& spec = *shared;
    if (!m_poolIds.count(pool))
        addPool(pool, 0);
    uint32_t poolId = m_poolIds[pool];
    const std::string& name = spec.node.meta.name;
    NodeRec& node = m_nodes[name];
    if (node.up && node.billed)
        return; // already present: adding twice would double-count its devices
    if (!node.billed) {
        node.billed = true;
        m_pools[poolId].nodesBilled++;
    }
    node.spec = std::move(shared);
    if (std::any_of(spec.node.taints.begin(), spec.node.taints.end(),
            [](const api::Taint& t) { return t.effect == "NoExecute"; }))
        ++m_noExecuteNodes;
    node.pool = poolId;
    node.up = true;
    m_pools[poolId].nodesUp++;
    node.devices.clear();
    for (const auto& slice : spec.slices) {
        if (outdated(spec, slice))
            continue;
        // Pools mix drivers (GPUs and NICs): per pool and driver, or the ratio means little.
        uint32_t dimPool = m_pool.intern(pool + "/" + slice.driver);
        for (const auto& dev : slice.devices) {
            std::string key = joinKey(slice.driver, slice.pool.name, dev.name);
            auto [it, inserted] = m_deviceIds.emplace(key, uint32_t(m_devices.size()));
            if (inserted) {
                DeviceRec rec;
                rec.driver = m_driver.intern(slice.driver);
                rec.model = m_model.intern(modelOf(dev, slice.driver));
                rec.pool = dimPool;
                rec.up = false;
                m_driver.installed[rec.driver]++;
                m_model.installed[rec.model]++;
                m_pool.installed[rec.pool]++;
                m_devices.push_back(rec);
                m_deviceNames.push_back(key);
            }
            DeviceRec& rec = m_devices[it->second];
            rec.object = &dev; // in node.spec, which stays until the node is forgotten
            if (!rec.up) {
                rec.up = true;
                rec.pool = dimPool;
                changeDevice(rec, +1, rec.holders > 0 ? 1 : 0);
            }
            node.devices.push_back(it->second);
        }
    }
}

void SimMetrics::removeNode(const std::string& name, SimTime now)
{
    auto it = m_nodes.find(name);
    if (it == m_nodes.end() || !it->second.up)
        return;
    accrue(now);
    NodeRec& node = it->second;
    node.up = false;
    m_pools[node.pool].nodesUp--;
    for (uint32_t d : node.devices) {
        DeviceRec& rec = m_devices[d];
        if (rec.up) {
            changeDevice(rec, -1, rec.holders > 0 ? -1 : 0);
            rec.up = false;
        }
    }
}

const api::Device* SimMetrics::device(uint32_t index) const
{
    return index < m_devices.size() ? m_devices[index].object : nullptr;
}

const NodeSpec* SimMetrics::nodeSpec(const std::string& name) const
{
    auto it = m_nodes.find(name);
    return it == m_nodes.end() || !it->second.up ? nullptr : it->second.spec.get();
}

std::shared_ptr<const NodeSpec> SimMetrics::sharedNodeSpec(const std::string& name) const
{
    auto it = m_nodes.find(name);
    return it == m_nodes.end() || !it->second.up ? nullptr : it->second.spec;
}

std::string SimMetrics::poolOfDownNode(const std::string& name) const
{
    auto it = m_nodes.find(name);
    return it == m_nodes.end() ? std::string() : m_pools[it->second.pool].name;
}

std::vector<std::string> SimMetrics::nodesOfPool(const std::string& pool) const
{
    std::vector<std::string> out;
    auto p = m_poolIds.find(pool);
    if (p == m_poolIds.end())
        return out;
    for (const auto& [name, node] : m_nodes)
        if (node.pool == p->second && node.up)
            out.push_back(name);
    return out;
}

std::vector<std::string> SimMetrics::downNodesOfPool(const std::string& pool) const
{
    std::vector<std::string> out;
    auto p = m_poolIds.find(pool);
    if (p == m_poolIds.end())
        return out;
    for (const auto& [name, node] : m_nodes)
        if (node.pool == p->second && !node.up)
            out.push_back(name);
    return out;
}

void SimMetrics::forgetDownNodes(const std::string& pool)
{
    auto p = m_poolIds.find(pool);
    if (p == m_poolIds.end())
        return;
    // A removed pool is no longer paid for, failed machines included.
    for (auto it = m_nodes.begin(); it != m_nodes.end();) {
        if (it->second.pool == p->second && !it->second.up) {
            for (uint32_t d : it->second.devices)
                m_devices[d].object = nullptr;
            it = m_nodes.erase(it);
        } else {
            ++it;
        }
    }
    m_pools[p->second].nodesBilled = m_pools[p->second].nodesUp;
}

std::vector<DeviceRef3> SimMetrics::devicesOf(const std::string& node) const
{
    std::vector<DeviceRef3> out;
    auto it = m_nodes.find(node);
    if (it == m_nodes.end())
        return out;
    for (const auto& slice : it->second.spec->slices) {
        if (outdated(*it->second.spec, slice))
            continue;
        for (const auto& dev : slice.devices)
            out.push_back(DeviceRef3 { slice.driver, slice.pool.name, dev.name });
    }
    return out;
}

int64_t SimMetrics::nodeCount() const
{
    int64_t n = 0;
    for (const auto& [name, node] : m_nodes)
        n += node.up ? 1 : 0;
    return n;
}

int64_t SimMetrics::deviceCount() const
{
    int64_t n = 0;
    for (const auto& d : m_devices)
        n += d.up ? 1 : 0;
    return n;
}

uint32_t SimMetrics::deviceIndex(
    const std::string& driver, const std::string& pool, const std::string& device) const
{
    // Asked for every device bound and freed: the key is written into one buffer per thread.
    thread_local std::string key;
    key.clear();
    key += driver;
    key += '\0';
    key += pool;
    key += '\0';
    key += device;
    auto it = m_deviceIds.find(key);
    return it == m_deviceIds.end() ? kNoIndex : it->second;
}

uint32_t SimMetrics::classIndex(const std::string& deviceClass)
{
    // Not through a conditional expression: that would copy the name for every binding.
    if (deviceClass.empty())
        return m_class.intern("unknown");
    return m_class.intern(deviceClass);
}

void SimMetrics::changeDevice(const DeviceRec& d, int64_t totalDelta, int64_t allocatedDelta)
{
    m_driver.total[d.driver] += totalDelta;
    m_model.total[d.model] += totalDelta;
    m_pool.total[d.pool] += totalDelta;
    m_driver.allocated[d.driver] += allocatedDelta;
    m_model.allocated[d.model] += allocatedDelta;
    m_pool.allocated[d.pool] += allocatedDelta;
}

void SimMetrics::deviceAllocated(uint32_t device, uint32_t deviceClass, int delta)
{
    if (device == kNoIndex)
        return;
    DeviceRec& d = m_devices[device];
    int32_t before = d.holders;
    d.holders += delta;
    bool wasBusy = before > 0;
    bool isBusy = d.holders > 0;
    if (d.up && wasBusy != isBusy)
        changeDevice(d, 0, isBusy ? 1 : -1);
    if (deviceClass != kNoIndex)
        m_class.allocated[deviceClass] += delta;
}

void SimMetrics::accrue(SimTime now)
{
    if (now <= m_accruedTo)
        return;
    double hours = toSeconds(now - m_accruedTo) / 3600.0;
    for (auto& p : m_pools)
        p.cost += double(p.nodesBilled) * p.price * hours;
    m_accruedTo = now;
}

uint32_t SimMetrics::workloadIndex(const std::string& name)
{
    // Looked up first: emplace would build a node (a copy of the name) for every job.
    if (auto known = m_workloadIds.find(name); known != m_workloadIds.end())
        return known->second;
    auto [it, inserted] = m_workloadIds.emplace(name, uint32_t(m_workloads.size()));
    if (inserted) {
        m_workloads.emplace_back();
        m_workloads.back().s.name = name;
    }
    return it->second;
}

void SimMetrics::jobArrived(uint32_t w)
{
    m_workloads[w].s.jobsArrived++;
}

void SimMetrics::jobFinished(uint32_t w, bool succeeded, SimTime elapsed, bool pipeline)
{
    WorkloadRec& r = m_workloads[w];
    if (!succeeded) {
        r.s.jobsFailed++;
        return;
    }
    r.s.jobsSucceeded++;
    r.jobTimes.push_back(toSeconds(elapsed));
    if (pipeline)
        r.pipelineTimes.push_back(toSeconds(elapsed));
}

void SimMetrics::podCreated(uint32_t w)
{
    m_workloads[w].s.podsCreated++;
}

void SimMetrics::podScheduled(uint32_t w, SimTime waited)
{
    m_workloads[w].s.podsScheduled++;
    m_workloads[w].waits.push_back(toSeconds(waited));
}

void SimMetrics::podNeverScheduled(uint32_t w, SimTime waitedSoFar)
{
    m_workloads[w].neverScheduledWaits.push_back(toSeconds(waitedSoFar));
}

void SimMetrics::podSucceeded(uint32_t w)
{
    m_workloads[w].s.podsSucceeded++;
}

void SimMetrics::podFailed(uint32_t w, bool evicted)
{
    m_workloads[w].s.podsFailed++;
    if (evicted)
        m_workloads[w].s.podsEvicted++;
}

void SimMetrics::placement(const std::string& distanceClass)
{
    if (!distanceClass.empty())
        m_placement[distanceClass]++;
}

void SimMetrics::setAtEnd(uint32_t w, int64_t pendingPods, int64_t unfinishedJobs)
{
    m_workloads[w].s.podsPendingAtEnd = pendingPods;
    m_workloads[w].s.jobsUnfinished = unfinishedJobs;
}

MetricSample SimMetrics::sample(SimTime now, const std::map<std::string, int64_t>& pendingByReason,
    const std::map<std::string, int64_t>& fragmentation, SimTime longestPending)
{
    MetricSample s;
    s.time = now;
    double hoursSinceLast = m_samples == 0 ? 0 : toSeconds(now - m_lastSample) / 3600.0;
    ++m_samples;
    m_lastSample = now;
    settled();

    s.points.push_back({ "pods.pending", "", double(m_pending) });
    // The peak since the previous sample and the oldest pending pod's wait, from the events: what
    // the summary reports, which the sampled count alone can miss between samples.
    s.points.push_back({ "pods.pending.peak", "", double(m_peakSinceSample) });
    s.points.push_back({ "pods.pending.longest_s", "", toSeconds(longestPending) });
    m_peakSinceSample = m_pending;
    s.points.push_back({ "pods.running", "", double(m_running) });
    auto dimension = [&](Dimension& dim, const char* allocatedName, const char* utilName, bool ratios) {
        for (const auto& [name, id] : dim.ids) {
            double alloc = double(dim.allocated[id]);
            s.points.push_back({ allocatedName, name, alloc });
            dim.allocatedSum[id] += alloc;
            dim.upSum[id] += double(dim.total[id]);
            if (!ratios)
                continue;
            double ratio = dim.total[id] > 0 ? alloc / double(dim.total[id]) : 0;
            s.points.push_back({ utilName, name, ratio });
            dim.ratioPeak[id] = std::max(dim.ratioPeak[id], ratio);
        }
    };
    dimension(m_driver, "devices.allocated.driver", "utilization.driver", true);
    dimension(m_class, "devices.allocated.class", "", false);
    dimension(m_model, "devices.allocated.model", "utilization.model", true);
    dimension(m_pool, "devices.allocated.pool", "utilization.pool", true);
    for (const auto& [reason, count] : pendingByReason) {
        s.points.push_back({ "unschedulable.reason", reason, double(count) });
        // Left-rectangle rule would need the previous counts; the right one is close enough at
        // metric-interval resolution and keeps the bookkeeping O(keys).
        m_reasonPodHours[reason] += double(count) * hoursSinceLast;
    }
    for (const auto& [reason, count] : fragmentation) {
        s.points.push_back({ "fragmentation.free_devices", reason, double(count) });
        m_fragmentationSum[reason] += double(count);
    }
    for (const auto& p : m_pools) {
        s.points.push_back({ "nodes.up", p.name, double(p.nodesUp) });
    }
    double cost = 0;
    for (const auto& p : m_pools)
        cost += p.cost;
    s.points.push_back({ "cost.usd", "", cost });
    return s;
}

void SimMetrics::addGpuShareFragmentation(MetricSample& s, const gpushare::ClusterFragment& f)
{
    const double ofCapacity = 100.0 * f.fragmentMilli / double(f.capacityMilli);
    const double ofFree = f.freeMilli > 0 ? 100.0 * f.fragmentMilli / double(f.freeMilli) : 0.0;
    s.points.push_back({ "fragmentation.gpu_share_percent", "", ofCapacity });
    s.points.push_back({ "fragmentation.gpu_share_rate_percent", "", ofFree });
    ++m_shareSamples;
    m_shareSums.meanPercentOfCapacity += ofCapacity;
    m_shareSums.peakPercentOfCapacity = std::max(m_shareSums.peakPercentOfCapacity, ofCapacity);
    m_shareSums.meanPercentOfFree += ofFree;
}

void SimMetrics::addClaimFragmentation(
    MetricSample& s, const std::map<std::string, gpushare::ClassFragment>& byClass, bool onShares)
{
    m_claimOnShares = m_claimOnShares || onShares;
    for (const auto& [deviceClass, f] : byClass)
        s.points.push_back({ "fragmentation.claim_devices", deviceClass, f.fragment });
    for (const auto& [deviceClass, f] : byClass) {
        const double rate = f.free > 0 ? 100.0 * f.fragment / f.free : 0.0;
        s.points.push_back({ "fragmentation.claim_rate_percent", deviceClass, rate });
        ClaimFragmentationSummary& sum = m_claimSums[deviceClass];
        sum.deviceClass = deviceClass;
        ++sum.samples;
        sum.meanDevices += f.fragment;
        sum.peakDevices = std::max(sum.peakDevices, f.fragment);
        sum.meanFreeDevices += f.free;
        sum.meanPercentOfFree += rate;
    }
}

RunSummary SimMetrics::summary(SimTime) const
{
    RunSummary out;
    out.samples = m_samples;
    out.peakPendingPods = std::max(m_peakPending, m_pending);
    std::vector<double> allWaits, allNeverScheduled;
    std::vector<const WorkloadRec*> ordered;
    for (const auto& [name, id] : m_workloadIds)
        ordered.push_back(&m_workloads[id]);
    for (const WorkloadRec* r : ordered) {
        WorkloadSummary w = r->s;
        w.waitSeconds = summarizeCensored(r->waits, r->neverScheduledWaits);
        w.jobCompletionSeconds = summarize(r->jobTimes);
        w.pipelineCompletionSeconds = summarize(r->pipelineTimes);
        allWaits.insert(allWaits.end(), r->waits.begin(), r->waits.end());
        allNeverScheduled.insert(
            allNeverScheduled.end(), r->neverScheduledWaits.begin(), r->neverScheduledWaits.end());
        out.podsCreated += w.podsCreated;
        out.podsScheduled += w.podsScheduled;
        out.podsSucceeded += w.podsSucceeded;
        out.podsFailed += w.podsFailed;
        out.podsEvicted += w.podsEvicted;
        out.workloads.push_back(std::move(w));
    }
    out.waitSeconds = summarizeCensored(std::move(allWaits), std::move(allNeverScheduled));
    double n = m_samples > 0 ? double(m_samples) : 1;
    auto dimension = [&](const Dimension& dim, const char* name, bool ratios) {
        for (const auto& [key, id] : dim.ids) {
            UtilizationSummary u;
            u.dimension = name;
            u.key = key;
            u.devicesAtEnd = ratios ? dim.total[id] : dim.allocated[id];
            u.devicesInstalled = ratios ? dim.installed[id] : 0;
            u.meanDevicesUp = ratios ? dim.upSum[id] / n : 0;
            // Allocated device-time over up device-time: devices on failed nodes are not idle.
            u.mean = ratios && dim.upSum[id] > 0 ? dim.allocatedSum[id] / dim.upSum[id] : 0;
            u.peak = ratios ? dim.ratioPeak[id] : 0;
            u.meanAllocated = dim.allocatedSum[id] / n;
            out.utilization.push_back(std::move(u));
        }
    };
    dimension(m_driver, "driver", true);
    dimension(m_class, "class", false);
    dimension(m_model, "model", true);
    dimension(m_pool, "pool", true);
    for (const auto& [reason, hours] : m_reasonPodHours)
        out.unschedulablePodHours.push_back({ reason, hours });
    for (const auto& [reason, sum] : m_fragmentationSum)
        out.fragmentation.push_back({ reason, sum / n });
    if (m_shareSamples > 0) {
        GpuShareFragmentationSummary f = m_shareSums;
        f.meanPercentOfCapacity /= double(m_shareSamples);
        f.meanPercentOfFree /= double(m_shareSamples);
        out.gpuShareFragmentation = f;
    }
    for (const auto& [deviceClass, sums] : m_claimSums) {
        ClaimFragmentationSummary f = sums;
        const double samples = double(f.samples);
        f.meanDevices /= samples;
        f.meanFreeDevices /= samples;
        f.meanPercentOfFree /= samples;
        out.claimFragmentation.push_back(std::move(f));
    }
    out.claimFragmentationOnShares = m_claimOnShares;
    for (const auto& [cls, count] : m_placement)
        out.placement.push_back({ cls, double(count) });
    std::map<std::string, double> byPool;
    for (const auto& p : m_pools) {
        byPool[p.name] += p.cost;
        out.costUsd += p.cost;
    }
    for (const auto& [name, cost] : byPool)
        out.costByPool.push_back({ name, cost });
    return out;
}

} // namespace drasim::sim
