// SPDX-License-Identifier: Apache-2.0
#include "ui/document/text_buffers.h"

#include <QFile>
#include <QPlainTextDocumentLayout>
#include <QTextDocument>
#include <QUndoCommand>
#include <QUndoStack>

#include "core/common/atomic_file.h"

namespace drasim::ui {

namespace {

/// One undo step of a text buffer, replayed by the buffer itself. Pushed after the edit happened,
/// so the first redo() (which QUndoStack::push calls) does nothing.
class TextEditCommand : public QUndoCommand
{
public:
    TextEditCommand(QTextDocument* doc, const QString& fileName)
        : m_doc(doc)
    {
        setText(TextBuffers::tr("edit %1").arg(fileName));
    }
    void undo() override { m_doc->undo(); }
    void redo() override
    {
        if (m_pushed)
            m_doc->redo();
        m_pushed = true;
    }

private:
    QTextDocument* m_doc;
    bool m_pushed = false;
};

QString fileNameOf(const QString& path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? path : path.mid(slash + 1);
}

} // namespace

TextBuffers::TextBuffers(QUndoStack* undo, QObject* parent)
    : QObject(parent)
    , m_undo(undo)
{ }

TextBuffers::~TextBuffers() = default;

bool TextBuffers::read(const QString& path, QTextDocument* doc, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    // Reading is not an edit: nothing to undo, nothing modified.
    doc->setUndoRedoEnabled(false);
    doc->setPlainText(QString::fromUtf8(file.readAll()));
    doc->setUndoRedoEnabled(true);
    doc->setModified(false);
    return true;
}

QTextDocument* TextBuffers::buffer(const QString& path, QString* error)
{
    auto it = m_buffers.find(path);
    if (it != m_buffers.end())
        return it->second;
    auto* doc = new QTextDocument(this);
    doc->setDocumentLayout(new QPlainTextDocumentLayout(doc));
    read(path, doc, error);
    connect(doc, &QTextDocument::undoCommandAdded, this,
        [this, doc, path]() { m_undo->push(new TextEditCommand(doc, fileNameOf(path))); });
    connect(doc, &QTextDocument::modificationChanged, this,
        [this, path](bool modified) { Q_EMIT modificationChanged(path, modified); });
    m_buffers.emplace(path, doc);
    return doc;
}

bool TextBuffers::isModified(const QString& path) const
{
    auto it = m_buffers.find(path);
    return it != m_buffers.end() && it->second->isModified();
}

bool TextBuffers::save(const QString& path, QString* error)
{
    auto it = m_buffers.find(path);
    if (it == m_buffers.end())
        return true; // never opened, never changed
    std::string message;
    const QByteArray bytes = it->second->toPlainText().toUtf8();
    if (!writeFileAtomically(
            path.toStdString(), std::string_view(bytes.constData(), size_t(bytes.size())), &message)) {
        if (error)
            *error = QString::fromStdString(message);
        return false;
    }
    it->second->setModified(false);
    return true;
}

void TextBuffers::documentReopened()
{
    for (auto& [path, doc] : m_buffers) {
        if (!doc->isModified())
            read(path, doc, nullptr);
        doc->clearUndoRedoStacks();
    }
}

} // namespace drasim::ui
