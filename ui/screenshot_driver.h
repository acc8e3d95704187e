// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

namespace drasim::ui {

class MainWindow;

/// Renders one view of the window to an image file once it has something to show, for the
/// README and smoke tests (`drasim-gui --screenshot FILE --view NAME`); works offscreen.
/// Views: "cluster" (objects once opened), "simulation" or "dashboard" (a scenario once simulated),
/// "pods" (pods and claims once scheduled, the first pending pod explained; for a scenario, its
/// run's pods once replayed), "topology" and
/// "timeline" (once the run is replayed), "editor" (the first file checked, its first problem
/// shown, the CEL box evaluating an example selector), "inspector" (the first pod to schedule
/// traced, at the candidate before its first pick), "plan" (a Study file once planned), "compare"
/// (the scenario run with its seed and the next, the two runs compared), "fragmentation" (a trace
/// scenario's fragmentation study once run with every policy and seed). Without a view,
/// the page the window picks itself (Simulation for a scenario, Cluster for manifests).
class ScreenshotDriver : public QObject
{
    Q_OBJECT
public:
    static QStringList viewNames();
    /// Why `view` cannot be pictured from `paths`, or empty when it can: "plan" needs one Study
    /// file (and a Study shows nothing else); "dashboard", "simulation", "timeline" and "compare"
    /// need one Scenario file. Checked before opening, so a mismatch neither waits for ever nor
    /// pictures an empty tab.
    static QString inputMismatch(const QString& view, const QStringList& paths);

    /// view must be empty or one of viewNames(). Call before opening the inputs.
    ScreenshotDriver(MainWindow* window, const QString& view, const QString& file, QObject* parent = nullptr);

Q_SIGNALS:
    /// The image was written (ok) or could not be (the message says why).
    void done(bool ok, const QString& message);

private:
    void ready();

    MainWindow* m_window;
    QString m_view;
    QString m_file;
    bool m_saving = false;
    int m_runsDone = 0;
};

} // namespace drasim::ui
