// SPDX-License-Identifier: Apache-2.0
#pragma once

// Loads Kubernetes manifests into the v1 object model: multi-document files, `kind: List`
// (kubectl get -o yaml dumps), directories (recursive, sorted), stdin ("-"). resource.k8s.io
// v1beta1/v1beta2 (and v1alpha3) are converted to v1; classic DRA (v1alpha1/v1alpha2) is rejected
// with a note on what replaced it. Validation follows the API server with strict field
// validation; every error is `file:line:column: Kind namespace/name: field.path: message`.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/feature_gates.h"
#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::yamlio {

struct LoadOptions
{
    size_t maxErrors = 100;
    /// Files larger than this are refused with a clear error (memory stays bounded).
    size_t maxFileBytes = size_t(64) << 20;
    YamlLimits yaml;
    /// Parse the items of large `kind: List` dumps on several threads (same result either way).
    bool parallel = true;
    /// Checked between files, documents and List items: a cancelled load stops there and returns
    /// what it had read, with LoadResult::cancelled set.
    const CancelToken* cancel = nullptr;
    /// Told the share of input bytes read so far (stage "loading").
    ProgressSink* progress = nullptr;
    /// The cluster's Kubernetes version and feature gates (1.37 defaults): which scheduling.k8s.io
    /// kinds and versions are served, which gated fields are refused or dropped.
    api::FeatureGates gates;
    /// PriorityClasses the cluster already has besides those in the files (a scenario's, for its
    /// workloads' manifests): pods and PodGroups resolve their priorityClassName against both, as
    /// the Priority admission plugin does (core/api/priority_admission.h).
    std::vector<api::PriorityClass> priorityClasses;
};

struct LoadResult
{
    api::ObjectSet objects; ///< only objects without errors
    Diagnostics diagnostics;
    bool cancelled = false; ///< stopped early through LoadOptions::cancel: objects are incomplete
};

/// Files, directories (recursively: *.yaml, *.yml, *.json, sorted by path) and "-" for stdin.
LoadResult loadPaths(const std::vector<std::string>& paths, const LoadOptions& options = {});
/// One in-memory stream of YAML documents; fileName is used in diagnostics.
LoadResult loadText(std::string_view text, const std::string& fileName, const LoadOptions& options = {});

} // namespace drasim::yamlio
