// SPDX-License-Identifier: Apache-2.0
#pragma once

// An independent, deliberately plain model of one allocation attempt, written from the upstream
// rules rather than from the allocator's code: which pools a node sees (newest generation,
// completeness, validity), and whether a device may be added for a request given the allocated
// state and the picks made so far (in-use rules of 1.34+, selectors, consumable capacity, shared
// counters, taints, constraints). It serves two laws of the invariant test:
//
//  * check(): the allocator's results, replayed in result order, must each be accepted, and
//    every request must get exactly its devices (soundness, whatever the search order);
//  * solve(): an exhaustive search in a random device order; when it finds a solution on a node,
//    the allocator must not have left the pod unschedulable (completeness).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/api/object_set.h"
#include "core/cel/cel.h"

namespace drasim::testing {

/// The allocated state before one pod's cycle (§3.1): dedicated devices, shares and their
/// consumed capacity, by "driver/pool/device". Admin-access results are ignored.
struct PriorState
{
    std::set<std::string> dedicated;
    std::map<std::string, std::map<std::string, Quantity>> shares;
    static PriorState of(const std::vector<const api::ResourceClaim*>& claims);
};

class AllocationModel
{
public:
    explicit AllocationModel(const api::ObjectSet& objects);

    /// "" when the pod's claims (allocated on node, results in order) are a valid outcome of one
    /// attempt on that node; otherwise what is wrong.
    std::string check(
        const api::Node& node, const std::vector<const api::ResourceClaim*>& claims, const PriorState& prior);

    enum class Search { Found, None, Inconclusive };
    /// Searches for any solution of the claims (unallocated) on the node. Inconclusive when a
    /// selector could raise a CEL error there (the allocator's outcome then depends on its visit
    /// order), or when the step bound is reached.
    Search solve(const api::Node& node, const std::vector<const api::ResourceClaim*>& claims,
        const PriorState& prior, uint64_t seed);

    /// The outcome of one attempt exactly as upstream's search has it (§3.4–§3.6, §3.15): the first
    /// solution in visit order, or no solution, or a fatal error with its text.
    struct Outcome
    {
        enum class Kind { Success, NoSolution, InvalidPools, Error, Inconclusive };
        Kind kind = Kind::NoSolution;
        std::string error;
        /// Per claim, its results in order as "request driver/pool/device".
        std::vector<std::vector<std::string>> results;
    };
    /// The node selector an allocation of these results on the node gets (§3.13); none when the
    /// devices are usable everywhere.
    std::optional<api::NodeSelector> nodeSelectorOf(
        const api::Node& node, const api::AllocationResult& allocation) const;

    /// The configuration an allocated claim carries (§3.12), from the alternatives its results
    /// chose.
    std::vector<api::DeviceAllocationConfiguration> configOf(const api::ResourceClaim& claim) const;
    /// Node affinity matching of a node selector (labels and metadata.name).
    static bool selects(const api::NodeSelector& selector, const api::Node& node);

    /// The claims' specs only are looked at (their allocation, if any, is ignored).
    Outcome firstSolution(
        const api::Node& node, const std::vector<const api::ResourceClaim*>& claims, const PriorState& prior);

    struct Pool;
    struct State;
    struct Request;

private:
    struct ExactSearch; ///< firstSolution's search state (allocation_model_search.cpp)

private:
    std::vector<Pool> view(const api::Node& node) const;
    enum class Add { Ok, No, ConstraintNo, Error };
    /// error: the text of a CEL error (Add::Error).
    Add tryAdd(State& st, const PriorState& prior, size_t claimIndex, const api::ResourceClaim& claim,
        const Request& req, const Pool& pool, const api::Device& device, std::string* error = nullptr);
    /// -1 error (its text in error, naming the class or claimKey), 0 false, 1 true.
    int selectorsPass(const api::DeviceRequestSpec& spec, const std::string& driver,
        const api::Device& device, std::string* error = nullptr, const std::string& claimKey = "");
    /// The All-mode list of a request on this view; false on an error (pool incomplete or invalid,
    /// CEL error), with upstream's text in error.
    bool allList(const std::vector<Pool>& pools, const PriorState& prior, const api::DeviceRequestSpec& spec,
        std::vector<std::pair<const Pool*, const api::Device*>>& out, std::string* error = nullptr,
        const std::string& claimKey = "", const std::string& request = "");

    const api::ObjectSet& m_objects;
    std::map<std::string, std::shared_ptr<const cel::Selector>> m_compiled;
};

} // namespace drasim::testing
