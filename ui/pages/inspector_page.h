// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace drasim::ui {

class Document;
class TopologyPage;
class TraceJob;
class TraceStepsModel;
struct TraceOutcome;

/// The allocation inspector, for learning how DRA allocation works: pick a pod and step through
/// the allocator's search for it (each node, claim and request, each candidate device and the
/// check that turned it away, each pick and each pick taken back) with Previous, Next, Next
/// decision and Run to end. The search is the core allocator's own, recorded by its trace while
/// the pods before this one are scheduled as `drasim allocate` does; this page only shows it.
/// With a Topology page, the candidate device of the step is lit up there.
class InspectorPage : public QWidget
{
    Q_OBJECT
public:
    explicit InspectorPage(Document* document, QWidget* parent = nullptr);
    ~InspectorPage() override;

    void setTopologyPage(TopologyPage* topology) { m_topology = topology; }
    /// Traces a pod ("namespace/name"); false when it is not in the list.
    bool selectPod(const QString& podKey);
    QString pod() const;

    int step() const { return m_step; }
    int stepCount() const;
    void setStep(int step);
    void next();
    void previous();
    /// The next pick, take-back or end of an attempt (skipping rejections).
    void nextDecision();
    void runToEnd();
    void restart();

    /// The devices picked and still standing at the current step, "claim request → driver/pool/device".
    QStringList currentPicks() const;
    /// The current step in words.
    QString currentText() const;
    std::shared_ptr<const TraceOutcome> outcome() const { return m_outcome; }
    TraceStepsModel* stepsModel() const { return m_steps; }
    QTableView* stepsView() const { return m_view; }
    QTextBrowser* detailView() const { return m_detail; }

Q_SIGNALS:
    /// A new pod's trace is shown (at its first step).
    void traced(const QString& podKey);
    void stepChanged(int step);

private:
    void onDocumentOpened();
    void onTraced(std::shared_ptr<const TraceOutcome> outcome);
    void showStep();
    QString detailHtml() const;

    Document* m_document;
    TopologyPage* m_topology = nullptr;
    TraceJob* m_job = nullptr;
    std::shared_ptr<const TraceOutcome> m_outcome;
    int m_step = 0;
    TraceStepsModel* m_steps = nullptr;
    QComboBox* m_pods = nullptr;
    QPushButton* m_restart = nullptr;
    QPushButton* m_previous = nullptr;
    QPushButton* m_next = nullptr;
    QPushButton* m_nextDecision = nullptr;
    QPushButton* m_end = nullptr;
    QLabel* m_position = nullptr;
    QTableView* m_view = nullptr;
    QTextBrowser* m_detail = nullptr;
};

} // namespace drasim::ui
