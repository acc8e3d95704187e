// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/inspector_page.h"

#include <algorithm>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "core/allocator/allocator.h"
#include "core/scheduler/batch.h"
#include "ui/document/document.h"
#include "ui/jobs/trace_job.h"
#include "ui/models/trace_steps_model.h"
#include "ui/pages/topology_page.h"

namespace drasim::ui {

using allocator::DeviceRejectReason;
using allocator::TraceEvent;
using allocator::TraceStep;

namespace {

QString html(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

/// The checks a candidate device goes through, in the allocator's order, with the rejection
/// reasons each one can give.
struct Check
{
    const char* words;
    std::vector<DeviceRejectReason> reasons;
};

const std::vector<Check>& checks()
{
    using R = DeviceRejectReason;
    static const std::vector<Check> list = {
        { "not already allocated", { R::InUse } },
        { "the device class's selectors", { R::ClassSelectorFalse } },
        { "the request's selectors", { R::RequestSelectorFalse, R::SelectorError } },
        { "available on this node", { R::NodeMismatch } },
        { "enough capacity left", { R::CapacityExhausted } },
        { "the pool's shared counters", { R::CountersExhausted } },
        { "taints tolerated", { R::TaintNotTolerated } },
        { "the claim's constraints", { R::ConstraintMismatch } },
    };
    return list;
}

} // namespace

InspectorPage::InspectorPage(Document* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    m_job = new TraceJob(this);
    m_steps = new TraceStepsModel(this);
    m_pods = new QComboBox(this);
    m_pods->setMinimumContentsLength(24);
    m_restart = new QPushButton(tr("Restart"), this);
    m_previous = new QPushButton(tr("◀ Previous"), this);
    m_next = new QPushButton(tr("Next ▶"), this);
    m_nextDecision = new QPushButton(tr("Next decision ▶▶"), this);
    m_nextDecision->setToolTip(
        tr("Skip rejected devices: go to the next pick, take-back or end of an attempt"));
    m_end = new QPushButton(tr("Run to end ▶|"), this);
    m_previous->setShortcut(QKeySequence(Qt::Key_Left | Qt::AltModifier));
    m_next->setShortcut(QKeySequence(Qt::Key_Right | Qt::AltModifier));
    m_position = new QLabel(this);
    auto* bar = new QHBoxLayout();
    bar->addWidget(new QLabel(tr("Pod"), this));
    bar->addWidget(m_pods);
    bar->addSpacing(12);
    for (auto* b : { m_restart, m_previous, m_next, m_nextDecision, m_end })
        bar->addWidget(b);
    bar->addWidget(m_position, 1);

    m_view = new QTableView(this);
    m_view->setModel(m_steps);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    for (int c : { TraceStepsModel::StepColumn, TraceStepsModel::NodeColumn, TraceStepsModel::RequestColumn })
        m_view->resizeColumnToContents(c); // the headers whole before any trace
    m_detail = new QTextBrowser(this);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_pods, &QComboBox::activated, this, [this]() { selectPod(m_pods->currentText()); });
    connect(m_restart, &QPushButton::clicked, this, &InspectorPage::restart);
    connect(m_previous, &QPushButton::clicked, this, &InspectorPage::previous);
    connect(m_next, &QPushButton::clicked, this, &InspectorPage::next);
    connect(m_nextDecision, &QPushButton::clicked, this, &InspectorPage::nextDecision);
    connect(m_end, &QPushButton::clicked, this, &InspectorPage::runToEnd);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& i) { setStep(i.row()); });
    connect(m_job, &TraceJob::traced, this, &InspectorPage::onTraced);
    connect(document, &Document::opened, this, &InspectorPage::onDocumentOpened);
    showStep();
}

InspectorPage::~InspectorPage() = default;

void InspectorPage::onDocumentOpened()
{
    m_pods->clear();
    m_outcome.reset();
    m_steps->setTrace(nullptr);
    // The pods one-shot scheduling places, in input order: the ones the allocator runs for.
    for (const auto& pod : m_document->objects()->pods)
        if (scheduler::needsScheduling(pod))
            m_pods->addItem(QString::fromStdString(
                (pod.meta.namespace_.empty() ? std::string("default") : pod.meta.namespace_) + "/"
                + pod.meta.name));
    if (m_pods->count() > 0)
        selectPod(m_pods->itemText(0));
    else
        showStep();
}

bool InspectorPage::selectPod(const QString& podKey)
{
    const int i = m_pods->findText(podKey);
    if (i < 0)
        return false;
    m_pods->setCurrentIndex(i);
    m_job->trace(m_document->objects(), podKey);
    return true;
}

QString InspectorPage::pod() const
{
    return m_pods->currentText();
}

void InspectorPage::onTraced(std::shared_ptr<const TraceOutcome> outcome)
{
    m_outcome = std::move(outcome);
    m_steps->setTrace(std::shared_ptr<const allocator::AllocationTrace>(m_outcome, &m_outcome->trace));
    m_view->resizeColumnToContents(TraceStepsModel::StepColumn);
    m_view->resizeColumnToContents(TraceStepsModel::NodeColumn);
    m_view->resizeColumnToContents(TraceStepsModel::RequestColumn);
    m_step = 0;
    showStep();
    Q_EMIT traced(m_outcome->podKey);
}

int InspectorPage::stepCount() const
{
    return m_steps->rowCount();
}

void InspectorPage::setStep(int step)
{
    m_step = std::clamp(step, 0, std::max(0, stepCount() - 1));
    showStep();
    Q_EMIT stepChanged(m_step);
}

void InspectorPage::next()
{
    setStep(m_step + 1);
}

void InspectorPage::previous()
{
    setStep(m_step - 1);
}

void InspectorPage::nextDecision()
{
    const auto* trace = m_steps->trace();
    if (!trace)
        return;
    int i = m_step + 1;
    while (i < stepCount() && trace->events()[size_t(i)].step == TraceStep::Rejected)
        ++i;
    setStep(i);
}

void InspectorPage::runToEnd()
{
    setStep(stepCount() - 1);
}

void InspectorPage::restart()
{
    setStep(0);
}

QStringList InspectorPage::currentPicks() const
{
    QStringList out;
    const auto* trace = m_steps->trace();
    if (!trace || trace->events().empty())
        return out;
    for (size_t i : trace->picksAfter(size_t(m_step))) {
        const auto& e = trace->events()[i];
        out << QString::fromStdString(e.claimKey + " " + e.requestName + " → " + e.deviceName);
    }
    return out;
}

QString InspectorPage::currentText() const
{
    const auto* trace = m_steps->trace();
    if (!trace || trace->events().empty())
        return {};
    return QString::fromStdString(allocator::describeTraceEvent(trace->events()[size_t(m_step)]));
}

void InspectorPage::showStep()
{
    const int n = stepCount();
    for (auto* b : { m_restart, m_previous })
        b->setEnabled(n > 0 && m_step > 0);
    for (auto* b : { m_next, m_nextDecision, m_end })
        b->setEnabled(n > 0 && m_step < n - 1);
    m_position->setText(n > 0 ? tr("step %1 of %2").arg(m_step + 1).arg(n) : QString());
    if (n > 0) {
        m_view->selectRow(m_step);
        m_view->scrollTo(m_steps->index(m_step, 0), QAbstractItemView::PositionAtCenter);
    }
    m_detail->setHtml(detailHtml());
    // The Topology page lights up the devices picked so far and the one this step is about, with
    // the distances between them (what a pcieRoot constraint is about).
    if (m_topology && n > 0) {
        const auto& trace = *m_steps->trace();
        const TraceEvent& e = trace.events()[size_t(m_step)];
        QStringList devices;
        for (size_t i : trace.picksAfter(size_t(m_step)))
            if (trace.events()[i].node == e.node)
                devices << QString::fromStdString(trace.events()[i].deviceName);
        if (!e.deviceName.empty() && !devices.contains(QString::fromStdString(e.deviceName)))
            devices << QString::fromStdString(e.deviceName);
        if (!devices.isEmpty())
            m_topology->highlightDevices(QString::fromStdString(e.node), devices,
                tr("%1 (allocator step %2)").arg(QString::fromStdString(e.claimKey)).arg(m_step + 1));
    }
}

QString InspectorPage::detailHtml() const
{
    if (!m_outcome && m_pods->count() == 0 && m_document->isScenario())
        return tr("<p>This scenario starts without pods: its workloads create them while it runs, so "
                  "there is no pod to follow here. The Timeline tab lists the run's pod events.</p>"
                  "<p>Open manifests with pods that are not bound to a node yet (any folder of "
                  "<code>scenarios/learn</code>, say) to step through the allocator's search for one.</p>");
    if (!m_outcome)
        return tr("<p>Pick a pod to follow the allocator's search for its devices, one step at a time.</p>"
                  "<p>Manifests with pods that are not bound to a node yet have something to show; "
                  "the pods before the chosen one are scheduled first, as <code>drasim allocate</code> "
                  "does.</p>");
    if (!m_outcome->ok)
        return tr("<p>The cluster cannot be scheduled:</p><pre>%1</pre>")
            .arg(m_outcome->message.toHtmlEscaped());
    const auto& r = m_outcome->result;
    QString out = tr("<h3>%1</h3>").arg(m_outcome->podKey.toHtmlEscaped());
    out += r.scheduled ? tr("<p>The scheduler placed it on <b>%1</b>.</p>").arg(html(r.nodeName))
                       : tr("<p>It stays pending: %1</p>").arg(html(r.message));
    const auto& events = m_outcome->trace.events();
    if (events.empty())
        return out
            + tr("<p>The allocator did not run: the pod has no claim to allocate, or the "
                 "scheduling cycle stopped before (a missing claim or device class).</p>");
    const TraceEvent& e = events[size_t(m_step)];
    out += tr("<h4>Step %1</h4><p>%2</p>").arg(m_step + 1).arg(html(allocator::describeTraceEvent(e)));
    if (e.step == TraceStep::Rejected || e.step == TraceStep::Picked) {
        // Each check the candidate went through: passed, the one that failed, or not reached.
        out += tr("<p>Checks for %1:</p><ul style=\"list-style-type: none\">").arg(html(e.deviceName));
        bool failed = false;
        for (const auto& c : checks()) {
            const bool thisOne = e.step == TraceStep::Rejected
                && std::find(c.reasons.begin(), c.reasons.end(), e.reason) != c.reasons.end();
            QString mark = failed ? tr("· not reached") : thisOne ? tr("✗ failed") : tr("✓ passed");
            out += QStringLiteral("<li>%1 — %2</li>").arg(mark, tr(c.words));
            failed = failed || thisOne;
        }
        out += QStringLiteral("</ul>");
    }
    const QStringList picks = currentPicks();
    out += tr("<p>Picked so far on %1:</p>").arg(html(e.node));
    if (picks.isEmpty())
        out += tr("<p><i>nothing</i></p>");
    else {
        out += QStringLiteral("<ol>");
        for (const QString& p : picks)
            out += QStringLiteral("<li>%1</li>").arg(p.toHtmlEscaped());
        out += QStringLiteral("</ol>");
    }
    return out;
}

} // namespace drasim::ui
