#include "session/remote_connection.h"

#include <QCoreApplication>
#include <QSettings>

#include "models/backbone.h"
#include "tasks/background_task.h"

namespace once::studio {
namespace {
const char* kUrlKey = "server/url";
const char* kApiKeyKey = "server/apiKey";
}  // namespace

RemoteConnection::RemoteConnection(QObject* parent)
    : QObject(parent), check_(new BackgroundTask(this)) {
    connect(check_, &BackgroundTask::failed, this, [this](const QString& message) {
        setState(State::Local);
        emit checkFailed(message);
    });
    connect(check_, &BackgroundTask::cancelled, this, [this] {
        setState(State::Local);
        emit checkFailed(QCoreApplication::translate("once::studio::RemoteConnection",
                                                     "The connection check was cancelled."));
    });
}

RemoteConnection::~RemoteConnection() {
    check_->cancelAndWait();
}

QString RemoteConnection::machine() const {
    const std::string& url = endpoint_.url;
    const auto scheme = url.find("://");
    QString m = QString::fromStdString(scheme == std::string::npos ? url : url.substr(scheme + 3));
    while (m.endsWith(QLatin1Char('/'))) {
        m.chop(1);
    }
    return m;
}

bool RemoteConnection::connectTo(const QString& url, const QString& apiKey) {
    if (check_->isRunning()) {
        return false;
    }
    once::serve::RemoteEndpoint e;
    QString u = url.trimmed();
    while (u.endsWith(QLatin1Char('/'))) {
        u.chop(1);
    }
    e.url = u.toStdString();
    e.apiKey = apiKey.trimmed().toStdString();
    // A check is short: a server that does not answer in this time is not one to work with.
    e.timeoutSeconds = 20;
    endpoint_ = e;
    model_.clear();
    setState(State::Checking);
    const QString title =
        QCoreApplication::translate("once::studio::RemoteConnection", "Connecting to %1").arg(u);
    check_->start(title, [this, e](once::Progress&) -> BackgroundTask::Deliver {
        const QString model = QString::fromStdString(once::serve::remoteModel(e));
        return [this, model] {
            model_ = model;
            // Questions may stream for minutes: the check's short limit is not theirs.
            endpoint_.timeoutSeconds = once::serve::RemoteEndpoint().timeoutSeconds;
            setState(State::Connected);
            emit connected(machine(), model_);
        };
    });
    return true;
}

void RemoteConnection::cancelCheck() {
    check_->cancel();
}

void RemoteConnection::disconnectFromServer() {
    check_->cancelAndWait();
    endpoint_ = {};
    model_.clear();
    setState(State::Local);
}

void RemoteConnection::setState(State state) {
    if (state_ != state) {
        state_ = state;
        emit stateChanged(state);
    }
}

std::string RemoteConnection::samplingFor(const PipelineSettings& settings) {
    const std::string rule = settings.sampling.toStdString();
    return rule == once::defaultSampling(settings.backbone.toStdString()) ? std::string() : rule;
}

RemoteConnection::Remembered RemoteConnection::remembered() {
    QSettings s;
    Remembered r;
    r.url = s.value(QLatin1String(kUrlKey)).toString();
    r.keyRemembered = s.contains(QLatin1String(kApiKeyKey));
    r.apiKey = s.value(QLatin1String(kApiKeyKey)).toString();
    return r;
}

void RemoteConnection::remember(const QString& url, const QString& apiKey, bool rememberKey) {
    QSettings s;
    s.setValue(QLatin1String(kUrlKey), url.trimmed());
    if (rememberKey && !apiKey.isEmpty()) {
        s.setValue(QLatin1String(kApiKeyKey), apiKey);
    } else {
        s.remove(QLatin1String(kApiKeyKey));
    }
}

QString RemoteConnection::settingsFile() {
    return QSettings().fileName();
}

}  // namespace once::studio
