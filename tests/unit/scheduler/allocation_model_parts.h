// SPDX-License-Identifier: Apache-2.0
#pragma once

// The model's inner types, shared by its files (allocation_model.cpp: view, checks, random
// search; allocation_model_search.cpp: the exact first-solution search).

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/unit/scheduler/allocation_model.h"

namespace drasim::testing {

struct AllocationModel::Pool
{
    std::string driver;
    std::string name;
    bool complete = false;
    bool valid = true;
    bool binding = false; ///< usable, with a device that has binding conditions: visited last
    std::vector<const api::Device*> devices; ///< relevant slices of the surviving generation
    std::vector<const api::Device*> sameGeneration; ///< relevant or not, for counters
    std::map<std::string, std::map<std::string, Quantity>> counterSets;
    std::map<const api::Device*, const api::ResourceSlice*> sliceOf; ///< of every device above
    std::set<const api::Device*> elsewhere; ///< per-device node selection names another node
};

struct AllocationModel::Request
{
    std::string resultName; ///< "r" or "r/s"
    std::string parent; ///< "r"
    const api::DeviceRequestSpec* spec = nullptr;
};

struct AllocationModel::State
{
    struct Pick
    {
        size_t claim = 0;
        std::string request; ///< "r" or "r/s"
        std::string device; ///< driver/pool/device
        bool multi = false;
        std::map<std::string, Quantity> consumed;
    };
    struct Constraint
    {
        int count = 0;
        api::DeviceAttribute value;
        std::vector<api::DeviceAttribute> distinct; ///< every device covered, whatever its request
    };
    std::vector<Pick> picks;
    std::map<const Pool*, std::map<std::string, std::map<std::string, Quantity>>> countersUsed;
    std::map<size_t, std::vector<Constraint>> constraints;
};

} // namespace drasim::testing
