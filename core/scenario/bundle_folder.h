// SPDX-License-Identifier: Apache-2.0
#pragma once

// A bundle's files on disk for as long as they are needed, for code that reads scenarios from
// files (the loader, preparation, the workload readers all take paths): a saved revision runs from
// such a folder, and a new variant is checked in one before it is saved.

#include <memory>
#include <string>
#include <vector>

#include "core/scenario/scenario_bundle.h"

namespace drasim::scenario {

class BundleFolder
{
public:
    /// Writes `files` into `<private folder>/scenario`, a folder of its own under the system's
    /// temporary folder, readable by this user only. The files are written under a staging name
    /// and the folder renamed into place once all are there, so nothing ever reads half a
    /// scenario. Null with `error` set when the folder or a file cannot be written, or a file's
    /// path would leave the folder.
    static std::unique_ptr<BundleFolder> create(const std::vector<BundleFile>& files, std::string& error);
    /// Removes the folder with everything in it.
    ~BundleFolder();
    BundleFolder(const BundleFolder&) = delete;
    BundleFolder& operator=(const BundleFolder&) = delete;

    /// The folder holding the files (absolute).
    const std::string& folder() const { return m_folder; }
    /// `file` (a bundle path) inside the folder.
    std::string path(const std::string& file) const;
    /// `text` (messages, diagnostics) with the folder's path, where it starts a file's path,
    /// replaced by `label` ("" leaves the paths relative to the folder).
    std::string relabel(std::string text, const std::string& label) const;

private:
    BundleFolder(std::string root, std::string folder);
    std::string m_root; ///< the private folder, removed by the destructor
    std::string m_folder;
};

} // namespace drasim::scenario
