// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QObject>
#include <QStringList>

#include "core/api/feature_gates.h"
#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "core/session/session.h"
#include "ui/jobs/background_pool.h"

class QUndoStack;

namespace drasim::ui {

class OpenJob;
class TextBuffers;

/// What the window shows: one session::Session (the inputs, their kind, the loaded objects or
/// the cluster a scenario builds, the prepared scenario, diagnostics) plus the user's edits on an
/// undo stack. Pages observe it (opened(), seedChanged()) and never load or simulate themselves.
/// Opening runs in the background (OpenJob); the session is replaced as a whole when it finishes.
class Document : public QObject
{
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);
    ~Document() override;

    /// Opens manifests (files, folders) or one Scenario file in the background.
    void open(const QStringList& paths);
    void reload();
    void cancelOpen();
    bool isOpening() const;
    OpenJob* openJob() const { return m_job; }

    /// The paths of the open session, as given.
    QStringList paths() const;
    /// The session (null before the first open finished).
    const session::Session* session() const { return m_session.get(); }
    bool isScenario() const;
    /// The loaded objects, or the cluster a scenario builds at time 0; kept alive with the session.
    std::shared_ptr<const api::ObjectSet> objects() const;
    /// The prepared scenario (null unless a scenario opened without errors).
    std::shared_ptr<const sim::PreparedScenario> prepared() const;
    const std::vector<Diagnostic>& diagnostics() const;
    /// "cluster.yaml, more.yaml" or the scenario file name; empty before the first open.
    QString displayName() const;

    QUndoStack* undoStack() const { return m_undo; }
    /// The edited text of the document's files; their edits are on undoStack().
    TextBuffers* textBuffers() const { return m_texts; }
    /// The files behind paths(): each file as given, the manifest files inside each folder.
    QStringList files() const;
    /// The seed runs use instead of the scenario's (unset: the scenario's own). An undoable edit.
    std::optional<quint64> seedOverride() const { return m_seed; }
    void setSeedOverride(std::optional<quint64> seed);
    /// The Kubernetes version and feature gates manifests are read and scheduled at (the APIs
    /// served, the gates), as `drasim allocate --kubernetes-version V --feature-gates G`; a
    /// scenario brings its own.
    const api::FeatureGates& manifestGates() const { return m_gates; }
    /// Sets them from the version and kube-scheduler's spelling of gates (`Name=true,Other=false`)
    /// and opens the paths again. Returns the error `--feature-gates` gives for the same words
    /// ("unrecognized feature gate: X", a dependency left off), changing nothing; "" when set.
    QString setManifestGates(api::KubernetesVersion version, const QString& gates);
    /// The gates the open session was read at: the scenario's, or manifestGates().
    api::FeatureGates featureGates() const;
    /// The program is ending: the session's objects are left to the end of the process instead
    /// of being freed one by one when the window goes (a 5,000-node cluster is a million
    /// allocations, half a second to free). For drasim-gui's main() only, after its event loop.
    void keepSessionUntilExit();

Q_SIGNALS:
    void openStarted(const QStringList& paths);
    void openProgress(double fraction);
    void openCancelled(double fractionRead);
    /// A new session replaced the old one: every observer re-reads the document.
    void opened();
    void seedOverrideChanged();
    void manifestGatesChanged();

private:
    class SetSeedCommand;
    void adopt(std::shared_ptr<session::Session> session);
    void applySeed(std::optional<quint64> seed);

    OpenJob* m_job = nullptr;
    QUndoStack* m_undo = nullptr;
    TextBuffers* m_texts = nullptr;
    std::shared_ptr<session::Session> m_session;
    std::optional<quint64> m_seed;
    api::FeatureGates m_gates;
    BackgroundPool m_release; ///< frees replaced sessions; last: destroyed first, waiting for them
};

} // namespace drasim::ui
