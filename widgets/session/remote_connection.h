#pragma once
// The studio's link to a `once serve` (File ▸ Connect to Server…): where questions go while it is
// connected, and nothing else — the video, codebook, overlay and question history stay in the
// studio, so losing the server loses no session. Connecting checks the URL and key with
// serve::remoteModel() on a worker (it may wait for a network timeout; the GUI thread never
// does). The API key lives in memory for the session; it is written to the settings file only
// when the user asks to remember it (Qt has no keyring in our dependencies), in plain text.
#include <QObject>
#include <QString>

#include "serve/remote_client.h"
#include "session/pipeline_settings.h"

namespace once::studio {

class BackgroundTask;

class RemoteConnection : public QObject {
    Q_OBJECT
  public:
    enum class State { Local, Checking, Connected };

    explicit RemoteConnection(QObject* parent = nullptr);
    ~RemoteConnection() override;

    State state() const { return state_; }
    bool isConnected() const { return state_ == State::Connected; }
    /// The server questions go to (meaningful while connected or checking).
    const once::serve::RemoteEndpoint& endpoint() const { return endpoint_; }
    /// "host:port" of the server, for "measured on …".
    QString machine() const;
    /// The model the server answers with (GET /v1/models), once connected.
    QString model() const { return model_; }

    /// Checks `url` and `apiKey` on a worker; ends in connected() or checkFailed(). False
    /// (nothing started) while a check runs.
    bool connectTo(const QString& url, const QString& apiKey);
    /// Stops a running check (it ends in checkFailed with "cancelled").
    void cancelCheck();
    /// Back to answering on this machine.
    void disconnectFromServer();
    BackgroundTask* checkTask() const { return check_; }

    /// The sampling rule a server is asked to use: the studio's when one was chosen, so the
    /// server's token grid is the one on screen (and its kept groups fit the overlay); "" (the
    /// server's own) when the studio uses the backbone's default.
    static std::string samplingFor(const PipelineSettings& settings);

    /// What the settings remember: the last URL always, the key only when asked to.
    struct Remembered {
        QString url;
        QString apiKey;
        bool keyRemembered = false;
    };
    static Remembered remembered();
    /// Saves `url`, and `apiKey` when `rememberKey` (else removes a key saved before).
    static void remember(const QString& url, const QString& apiKey, bool rememberKey);
    /// The settings file the key would be written to, for the dialog's warning.
    static QString settingsFile();

  signals:
    void stateChanged(once::studio::RemoteConnection::State state);
    void connected(const QString& machine, const QString& model);
    void checkFailed(const QString& message);

  private:
    void setState(State state);

    BackgroundTask* check_;
    once::serve::RemoteEndpoint endpoint_;
    QString model_;
    State state_ = State::Local;
};

}  // namespace once::studio
