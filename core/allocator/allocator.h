// SPDX-License-Identifier: Apache-2.0
#pragma once

// The structured-parameters allocator: for one pod's unallocated claims and one candidate node,
// the first solution of upstream's depth-first backtracking search (§3.4–§3.15 of the DRA
// semantics note), with the deterministic visit order of §3.3.
//
// Use: prepare() once per scheduling cycle, then allocate(node) per candidate node, then
// buildResults() for the node that was chosen.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/allocator/allocated_state.h"
#include "core/allocator/allocation_config.h"
#include "core/allocator/allocation_trace.h"
#include "core/allocator/capacity.h"
#include "core/allocator/constraint_values.h"
#include "core/allocator/derived_values.h"
#include "core/allocator/free_devices.h"
#include "core/allocator/inventory.h"
#include "core/allocator/reject_reason.h"
#include "core/allocator/selector_cache.h"
#include "core/api/core_v1.h"
#include "core/api/feature_gates.h"
#include "core/api/resource_v1.h"

namespace drasim::allocator {

inline constexpr int64_t kMaxResultsPerClaim = 32;

struct AllocatorOptions
{
    /// Devices tried per allocate() call before giving up as "timed out" (deterministic bound).
    uint64_t stepBudget = 2'000'000;
    /// Wall-clock bound per allocate() call; 0 = none.
    double timeoutSeconds = 10.0;
    /// The Kubernetes release whose allocator to follow where releases differ (the config list of
    /// the results: allocation_config.h).
    api::KubernetesVersion version = api::kDefaultKubernetesVersion;
    /// Feature gate DRADeviceCompatibilityGroups (1.37 alpha): devices on one counter set must
    /// share a compatibility group.
    bool compatibilityGroups = false;
    /// Feature gate DRAConsumableCapacity (off in 1.35): without it the allocator variant
    /// upstream picks knows no distinctAttribute constraint, which is then a fatal error.
    bool consumableCapacity = true;
    /// Feature gate DRAFractionalCapacityRange (capacityConsumption).
    bool fractionalCapacityRange = false;
    /// Feature gate DRAListTypeAttributes: constraints compare sets (constraint_values.h), as the
    /// experimental allocator does with it on.
    bool listTypeAttributes = false;
};

enum class AttemptStatus {
    Success,
    NoSolution, ///< "cannot allocate all claims"
    InvalidPools, ///< no solution and some pool was invalid
    Timeout, ///< step budget or wall clock exhausted
    Error, ///< fatal: aborts the scheduling cycle of the pod
};

struct Pick
{
    uint16_t claim = 0;
    uint16_t request = 0;
    uint16_t sub = 0;
    DeviceEntry entry;
};

struct Attempt
{
    AttemptStatus status = AttemptStatus::NoSolution;
    std::string error;
    std::vector<Pick> picks; ///< in result order
    std::vector<std::vector<int>>
        subs; ///< chosen subrequest per claim and request (0 without firstAvailable)
    int64_t plistScore = 0; ///< Σ (8 − chosen index) over firstAvailable requests
    uint64_t steps = 0;
};

/// Rejection counts of one (sub)request on one node, every device judged on its own.
struct RequestVerdicts
{
    std::string request;
    std::string deviceClass;
    std::string mode;
    int64_t wanted = 0;
    uint32_t visible = 0;
    uint32_t eligible = 0;
    RejectCounts rejected {}; ///< devices rejected, by reason
    std::string firstError;
    /// The first device turned away by a taint that a DeviceTaintRule put there, as
    /// "DeviceTaintRule NAME: key=value:Effect on DRIVER/POOL/DEVICE" (slice taints leave it empty).
    std::string firstRuleTaint;
};

struct ClaimVerdicts
{
    std::string claim;
    std::vector<RequestVerdicts> requests;
    bool hasConstraints = false;
};

class Allocator
{
public:
    using ClassMap = std::map<std::string, api::DeviceClass>;

    Allocator(Inventory& inventory, const AllocatedState& state, SelectorCache& selectors,
        const ClassMap& classes, AllocatorOptions options = {});

    /// Resolves classes and selector sets for these claims (in pod order). False with a fatal
    /// error message ("claim C, request R: could not retrieve device class K: ...").
    /// `specIds`, when given, name the claims' specs (one per claim): when every id is non-zero
    /// and equals the one prepared at the same position last time, the last preparation serves
    /// again with the new claim objects. An id must therefore stand for one unchanging spec, and
    /// the device classes must not have changed since. A pending pod is prepared on every retry,
    /// and most pods of a workload come from the same templates.
    bool prepare(const std::vector<const api::ResourceClaim*>& claims, std::string* error,
        const std::vector<uint64_t>& specIds = {});
    size_t claimCount() const { return m_claims.size(); }
    /// Devices the prepared claims need at least (the smallest alternative of each request).
    int64_t minimumDevices() const;
    /// Whether a node without any free device is certain to give "no solution" for these claims
    /// without evaluating a single selector: no admin access (it ignores in-use devices), no All
    /// mode (its list includes in-use devices), no claim over the result limit (an error on every
    /// node), and at least one device needed.
    bool zeroFreeMeansNoSolution() const;

    /// Whether any device the claims' selector sets can see raises a CEL error or any pool is
    /// invalid or incomplete, or a request uses All mode: then the outcome on one node may depend
    /// on more than that node's devices and callers must not take shortcuts.
    bool needsFullEvaluation();
    /// Whether a request lists alternatives (firstAvailable): the picks, and with them the
    /// DynamicResources score, then differ from node to node.
    bool hasPrioritizedList() const;

    /// Reports every step of later allocate() calls to `observer` (null: none, the default). The
    /// observer must outlive those calls.
    void setObserver(AllocationObserver* observer) { m_observer = observer; }

    Attempt allocate(const api::Node& node);
    /// Same, with the node's view already looked up (saves a string-keyed lookup per call).
    Attempt allocate(const api::Node& node, const NodeView& view);

    /// Allocation results for the attempt's claims, in claim order. newShareId is called once per
    /// share of a multi-allocatable device, in result order.
    /// timestamp is asked only for a claim that gets a device with binding conditions (its
    /// allocationTimestamp).
    /// `spares` holds allocations no longer used (of claims deallocated since): each claim's is
    /// written over one taken from its end, keeping its lists, instead of made anew.
    std::vector<api::AllocationResult> buildResults(const api::Node& node, const Attempt& attempt,
        const std::function<std::string()>& newShareId, const std::function<std::string()>& timestamp,
        std::vector<api::AllocationResult>* spares = nullptr) const;

    /// The capacity a pick consumes, as buildResults writes it in consumedCapacity: a share of a
    /// device that allows multiple allocations; empty for any other pick.
    std::map<std::string, Quantity> consumedBy(const Pick& pick) const;

    /// Per-device verdicts for explain (slow path only).
    std::vector<ClaimVerdicts> explain(const api::Node& node);

private:
    friend struct FreeDevices; // the search's shortcut reads the prepared claims (free_devices.h)
    enum class Step { Success, Fail, Limit, Error, Timeout };

    struct ConstraintDef
    {
        bool match = true; ///< matchAttribute, else distinctAttribute
        std::string attribute;
    };
    struct PreparedSub
    {
        std::string resultName; ///< "req" or "req/sub"
        const api::DeviceRequestSpec* spec = nullptr;
        const api::DeviceClass* cls = nullptr;
        uint32_t selectorSet = 0;
        bool all = false;
        bool admin = false;
        int64_t count = 1;
        std::vector<uint16_t> constraints; ///< indices of claim constraints that apply
        /// DRADerivedAttributes: the (sub)request's compiled derived attributes, and per entry of
        /// `constraints` the one named like the constraint's attribute (-1: the driver's).
        std::vector<std::shared_ptr<const cel::DerivedAttribute>> derived;
        std::vector<int16_t> constraintDerived;
    };
    struct PreparedRequest
    {
        std::string name;
        bool firstAvailable = false;
        std::vector<PreparedSub> subs;
    };
    struct PreparedClaim
    {
        const api::ResourceClaim* claim = nullptr;
        std::string key;
        std::vector<PreparedRequest> requests;
        std::vector<ConstraintDef> constraints;
    };
    struct PoolCounters
    {
        std::map<std::string, std::map<std::string, Quantity>> available;
        std::map<std::string, std::map<std::string, Quantity>> used;
        /// With compatibility groups: per counter set, the groups of each device drawing from it
        /// (allocated ones first, then this attempt's picks, undone last first).
        std::map<std::string, std::vector<const std::vector<std::string>*>> members;
    };
    struct AllItem
    {
        DeviceEntry entry;
        const NodePool* pool = nullptr;
    };

    Step visitClaim(size_t ci);
    Step visitRequest(size_t ci, size_t ri);
    Step visitSlot(size_t ci, size_t ri, size_t si, int64_t slot, size_t startPool, size_t startDevice);
    bool tick();

    bool inUse(const PreparedSub& sub, size_t ci, const DeviceEntry& e) const;
    /// Cheap checks of §3.5 steps 1–5. Returns false to skip; sets m_error on a CEL error.
    bool eligible(size_t ci, const PreparedSub& sub, const DeviceEntry& e, bool& error);
    /// Whether the device has room for the sub-request's capacity; staticOnly: judged against the
    /// device's capacity alone, as if nothing were consumed.
    bool capacityFits(const PreparedSub& sub, const DeviceEntry& e, bool staticOnly = false);
    /// DerivedError: a derived attribute's expression failed on the device (m_error says how);
    /// like a selector's CEL error it aborts the attempt.
    enum class AddResult { Ok, CountersFail, TaintFail, ConstraintFail, CapacityFail, DerivedError };
    /// §3.5 step 6 without the capacity check (ExactCount makes it among the cheap filters, an All
    /// slot after this).
    AddResult addDevice(size_t ci, size_t ri, size_t si, const DeviceEntry& e, const NodePool* pool);
    /// Takes the newest pick back (reported to the observer).
    void removeLast();
    /// The same without a report: for a pick that was never reported as made.
    void undoLastPick();
    bool countersFit(const NodePool* pool, const api::Device& d, int sign);
    PoolCounters& countersFor(const NodePool* pool);
    bool tolerated(const PreparedSub& sub, const api::Device& d) const;
    bool constraintAdd(const ConstraintDef& def, ConstraintState& st, const ConstraintValue& v) const;
    /// The value constraint `k` of the sub-request compares for the device: its derived attribute
    /// when the sub-request defines one of that name, else the driver's (absent: none). Absent
    /// with m_error set when the derived attribute's expression failed.
    ConstraintValue constraintValue(
        size_t ci, const PreparedSub& sub, size_t k, const DeviceEntry& e, bool& failed);
    bool prepareDerived(const PreparedClaim& pc, PreparedSub& ps, std::string* error);
    bool prepareClaims(const std::vector<const api::ResourceClaim*>& claims, std::string* error);
    void constraintRemove(const ConstraintDef& def, ConstraintState& st) const;
    std::string selectorError(size_t ci, const PreparedSub& sub, const DeviceEntry& e) const;
    /// For explain: the first untolerated blocking taint of the device when a DeviceTaintRule put
    /// it there, else "".
    std::string ruleTaintNote(const PreparedSub& sub, const DeviceEntry& e) const;
    bool buildAllLists(const NodeView& view, std::string* error);

    // Trace reporting (allocator_trace.cpp): called only when m_observer is set, off the hot path.
    TraceEvent traceEvent(TraceStep step, size_t ci, size_t ri, size_t si, int64_t slot) const;
    void traceDevice(TraceStep step, size_t ci, size_t ri, size_t si, int64_t slot, const DeviceEntry& e,
        DeviceRejectReason reason = DeviceRejectReason::InUse);
    void traceIneligible(size_t ci, size_t ri, size_t si, int64_t slot, const DeviceEntry& e);
    void traceAddFailed(
        size_t ci, size_t ri, size_t si, int64_t slot, const DeviceEntry& e, AddResult result);
    void traceAlternative(size_t ci, size_t ri, size_t si);
    void traceAttempt(bool finished);

    Inventory& m_inventory;
    AllocationObserver* m_observer = nullptr;
    const AllocatedState& m_state;
    SelectorCache& m_selectors;
    const ClassMap& m_classes;
    AllocatorOptions m_options;

    std::vector<PreparedClaim> m_claims;
    std::vector<uint64_t> m_preparedSpecIds; ///< the specIds m_claims were prepared from; empty: none
    // Per-attempt state.
    const NodeView* m_view = nullptr;
    Attempt m_attempt;
    std::vector<std::vector<std::vector<AllItem>>> m_allLists; ///< [claim][request*8+sub]
    std::vector<bool> m_claimHasAll; ///< per claim: some (sub)request uses All mode
    std::vector<int64_t> m_staticMinimum; ///< per claim without All: minimum device count
    FreeDevices::Needs m_freeDeviceNeeds; ///< the claims as the free-device shortcut reads them
    std::vector<std::vector<ConstraintState>> m_constraintStates;
    DerivedValues m_derivedValues; ///< per scheduling cycle (cleared by prepare)
    std::vector<int64_t> m_claimResults;
    std::vector<uint16_t> m_picked; ///< by DeviceId: picks of a dedicated device in this attempt
    struct Consumed
    {
        DeviceId id;
        Consumption amounts;
    };
    std::vector<Consumed> m_consumed; ///< stack parallel to m_attempt.picks
    std::map<const NodePool*, PoolCounters> m_counters;
    std::vector<const NodePool*> m_counterUndo; ///< pool charged per pick (nullptr when none)
    Consumption m_scratch;
    std::string m_error;
    uint64_t m_steps = 0;
    std::chrono::steady_clock::time_point m_deadline;
    bool m_timedOut = false;
    const api::Node* m_node = nullptr; ///< of the current attempt, for the trace
};

/// Is the device taint tolerated by one of the tolerations (§3.10)?
bool toleratesTaint(const std::vector<api::DeviceToleration>& tolerations, const api::DeviceTaint& taint);
/// Taint effects that block allocation: NoSchedule and NoExecute (None and unknown ones do not).
bool taintBlocks(const api::DeviceTaint& taint);

} // namespace drasim::allocator
