// SPDX-License-Identifier: Apache-2.0
// The Kubernetes Jobs that run a study exported with its files (study_export.h) as N shards and
// merge them: what `drasim plan STUDY --emit-job FOLDER --shards N` prints.
#pragma once

#include <string>

namespace drasim::cli {

struct JobSpec
{
    std::string study; ///< the study's name
    std::string folder; ///< the exported folder's name, at the root of the volume
    int shards = 1;
    unsigned threads = 1; ///< simulations at once in each shard, and the cpus it asks for
    std::string image;
    std::string claim; ///< the PersistentVolumeClaim mounted at /data
    std::string output = "text"; ///< the merged report: text or json
};

/// The Job and container names are at most 63 characters (label values); empty when they fit,
/// else the message saying which name is too long.
std::string checkJobNames(const JobSpec& spec);

/// An Indexed Job whose pod K runs shard K/N, then a Job that waits for every shard's file and
/// merges them: one YAML stream, the two documents separated by "---".
std::string jobManifests(const JobSpec& spec);

} // namespace drasim::cli
