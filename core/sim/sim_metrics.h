// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/gpushare/claim_fragmentation.h"
#include "core/gpushare/fragmentation.h"
#include "core/sim/run_recorder.h"
#include "core/sim/run_summary.h"
#include "core/sim/simulator.h"

namespace drasim::sim {

/// A device as the metrics see it.
struct DeviceRef3
{
    std::string driver;
    std::string pool;
    std::string device;
};

/// The engine's bookkeeping for everything it reports: device inventory with incremental
/// allocated counts per driver/model/node pool/class, pod and job counters per workload, wait
/// and completion times, placement classes and cost. Every update is O(1) or O(devices of one
/// node), so sampling costs O(keys), not O(devices) or O(pods).
class SimMetrics
{
public:
    static constexpr uint32_t kNoIndex = UINT32_MAX;

    // ---- inventory ----
    void addPool(const std::string& name, double pricePerHour);
    /// The spec is kept (shared, not copied: a run's initial nodes stay in their prepared pools).
    void addNode(std::shared_ptr<const NodeSpec> spec, const std::string& pool);
    void addNode(const NodeSpec& spec, const std::string& pool)
    {
        addNode(std::make_shared<const NodeSpec>(spec), pool);
    }
    /// Marks the node's devices down and stops its cost; remembers its pool for a return.
    void removeNode(const std::string& name, SimTime now);
    const NodeSpec* nodeSpec(const std::string& name) const;
    std::shared_ptr<const NodeSpec> sharedNodeSpec(const std::string& name) const; ///< null when down
    /// Whether a node ever added carried a NoExecute taint (the taint eviction controller has
    /// nothing to look up for a binding otherwise).
    bool anyNoExecuteNode() const { return m_noExecuteNodes > 0; }
    std::string poolOfDownNode(const std::string& name) const;
    std::vector<std::string> nodesOfPool(const std::string& pool) const; ///< nodes up, sorted
    std::vector<std::string> downNodesOfPool(const std::string& pool) const; ///< failed nodes, sorted
    void forgetDownNodes(const std::string& pool);
    std::vector<DeviceRef3> devicesOf(const std::string& node) const; ///< slice order
    int64_t nodeCount() const;
    int64_t deviceCount() const;

    uint32_t deviceIndex(const std::string& driver, const std::string& pool, const std::string& device) const;
    /// The device as its slice publishes it; null when its node is gone for good.
    const api::Device* device(uint32_t index) const;
    uint32_t classIndex(const std::string& deviceClass);
    /// delta +1 when a claim takes the device, -1 when it lets go.
    void deviceAllocated(uint32_t device, uint32_t deviceClass, int delta);

    // ---- cost ----
    /// Integrates node-hours × price up to `now`. Call before the node count of a pool changes.
    void accrue(SimTime now);

    // ---- pods and jobs ----
    uint32_t workloadIndex(const std::string& name);
    void jobArrived(uint32_t workload);
    void jobFinished(uint32_t workload, bool succeeded, SimTime elapsed, bool pipeline);
    void podCreated(uint32_t workload);
    void podScheduled(uint32_t workload, SimTime waited);
    /// A pod that was never scheduled: deleted while pending, or still pending when the run
    /// ends. Its wait so far joins the wait statistics as a censored value (a lower bound).
    void podNeverScheduled(uint32_t workload, SimTime waitedSoFar);
    void podSucceeded(uint32_t workload);
    void podFailed(uint32_t workload, bool evicted);
    void podPending(int delta) { m_pending += delta; }
    void podRunning(int delta) { m_running += delta; }
    int64_t pending() const { return m_pending; }
    /// Call when an event and the scheduling it caused are done: the pods pending now stay pending
    /// for a while, so the peak is exact whatever the sampling interval (a pod bound in the same
    /// instant it was created never counts as pending).
    void settled()
    {
        m_peakPending = std::max(m_peakPending, m_pending);
        m_peakSinceSample = std::max(m_peakSinceSample, m_pending);
    }
    void placement(const std::string& distanceClass);
    void setAtEnd(uint32_t workload, int64_t pendingPods, int64_t unfinishedJobs);

    // ---- samples and summary ----
    /// pendingByReason: pending pods per primary reason text (pods never tried: "queued");
    /// longestPending: how long the oldest pod pending now has waited.
    MetricSample sample(SimTime now, const std::map<std::string, int64_t>& pendingByReason,
        const std::map<std::string, int64_t>& fragmentation, SimTime longestPending);
    RunSummary summary(SimTime now) const;
    /// Adds the cluster's GPU-sharing fragmentation to a sample and to the run's means.
    void addGpuShareFragmentation(MetricSample& s, const gpushare::ClusterFragment& f);
    /// Adds the claim measure per DeviceClass to a sample and to the run's means.
    /// `onShares`: the general measure (device_fragmentation.h), said so in the summary.
    void addClaimFragmentation(MetricSample& s, const std::map<std::string, gpushare::ClassFragment>& byClass,
        bool onShares = false);

private:
    struct Dimension
    {
        std::map<std::string, uint32_t> ids; ///< sorted names → index
        std::vector<int64_t> total;
        std::vector<int64_t> allocated;
        std::vector<double> ratioPeak;
        std::vector<double> allocatedSum;
        std::vector<double> upSum; ///< sampled devices up: the denominator of the mean
        std::vector<int64_t> installed; ///< devices the run ever had, up or not
        uint32_t intern(const std::string& name);
    };
    struct DeviceRec
    {
        uint32_t driver = 0;
        uint32_t model = 0;
        uint32_t pool = 0;
        int32_t holders = 0; ///< claims holding it (shares of one device count as one device)
        bool up = true;
        const api::Device* object = nullptr; ///< in its node's NodeRec::spec
    };
    struct NodeRec
    {
        std::shared_ptr<const NodeSpec> spec; ///< never null once added
        uint32_t pool = 0;
        bool up = false;
        bool billed = false; ///< counted in its pool's nodesBilled
        std::vector<uint32_t> devices;
    };
    struct PoolRec
    {
        std::string name;
        double price = 0;
        int64_t nodesUp = 0;
        int64_t nodesBilled = 0; ///< up or failed (a failed machine is still paid for)
        double cost = 0;
    };
    struct WorkloadRec
    {
        WorkloadSummary s;
        std::vector<double> waits;
        std::vector<double> neverScheduledWaits; ///< censored: the wait so far
        std::vector<double> jobTimes;
        std::vector<double> pipelineTimes;
    };

    void changeDevice(const DeviceRec& d, int64_t totalDelta, int64_t allocatedDelta);

    Dimension m_driver;
    Dimension m_model;
    Dimension m_pool;
    Dimension m_class; ///< allocated counts only (no class totals: that needs every selector)
    std::vector<DeviceRec> m_devices;
    std::vector<std::string> m_deviceNames; ///< parallel to m_devices (driver, pool, device joined by '\0')
    std::unordered_map<std::string, uint32_t> m_deviceIds;
    std::map<std::string, NodeRec> m_nodes;
    uint32_t m_noExecuteNodes = 0; ///< additions of a node with a NoExecute taint
    std::vector<PoolRec> m_pools;
    std::map<std::string, uint32_t> m_poolIds;
    SimTime m_accruedTo = 0;
    std::map<std::string, uint32_t> m_workloadIds;
    std::vector<WorkloadRec> m_workloads;
    int64_t m_pending = 0;
    int64_t m_running = 0;
    int64_t m_peakPending = 0;
    int64_t m_peakSinceSample = 0;
    std::map<std::string, int64_t> m_placement;
    std::map<std::string, double> m_reasonPodHours;
    std::map<std::string, double> m_fragmentationSum;
    int64_t m_shareSamples = 0;
    GpuShareFragmentationSummary m_shareSums; ///< sums (peak: the peak) until summary()
    /// Per class: sums (peak: the peak) until summary(), samples in `samples`.
    std::map<std::string, ClaimFragmentationSummary> m_claimSums;
    bool m_claimOnShares = false;
    uint64_t m_samples = 0;
    SimTime m_lastSample = 0;
};

} // namespace drasim::sim
