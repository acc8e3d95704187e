// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"

namespace drasim::api {

struct OwnerReference
{
    std::string apiVersion;
    std::string kind;
    std::string name;
    std::string uid;
    bool controller = false;
};

/// The parts of ObjectMeta the simulator uses. Everything else (managedFields, resourceVersion,
/// ...) is accepted by the loader and dropped.
struct ObjectMeta
{
    std::string name;
    std::string generateName;
    std::string namespace_; ///< empty for cluster-scoped objects
    std::string uid;
    std::map<std::string, std::string> labels;
    std::map<std::string, std::string> annotations;
    std::vector<OwnerReference> ownerReferences;
    std::vector<std::string> finalizers;
    SourcePos pos; ///< where the object starts in its file

    /// "namespace/name" for namespaced objects, "name" otherwise.
    std::string key() const { return namespace_.empty() ? name : namespace_ + "/" + name; }
};

/// core/v1 NodeSelectorRequirement (also used by DRA for slice and allocation node selectors).
struct NodeSelectorRequirement
{
    std::string key;
    std::string op; ///< In, NotIn, Exists, DoesNotExist, Gt, Lt
    std::vector<std::string> values;
    bool operator==(const NodeSelectorRequirement&) const = default;
};

struct NodeSelectorTerm
{
    std::vector<NodeSelectorRequirement> matchExpressions;
    std::vector<NodeSelectorRequirement> matchFields;
    bool operator==(const NodeSelectorTerm&) const = default;
};

/// Terms are ORed; requirements inside a term are ANDed.
struct NodeSelector
{
    std::vector<NodeSelectorTerm> terms;
    bool operator==(const NodeSelector&) const = default;
};

struct Taint
{
    std::string key;
    std::string value;
    std::string effect; ///< NoSchedule, PreferNoSchedule, NoExecute (DRA device taints also: None)
    std::string timeAdded;
    bool operator==(const Taint&) const = default;
};

struct Toleration
{
    std::string key;
    std::string op; ///< "Equal" (default when empty) or "Exists"
    std::string value;
    std::string effect; ///< empty = all effects
    std::optional<int64_t> tolerationSeconds;
};

} // namespace drasim::api
