"""What sessions that are gone still hold, released: Streamlit 1.67 keeps it for the life of the process.

A browser that closes leaves its session stored for reconnecting (``server.disconnectedSessionTTL``,
120 s). When that time is up the session is dropped from the store without being shut down, and
shutting down is what removes its uploaded files and its media references (among them a deferred
download's function, which can hold the session's input): every upload of every closed session
stays in memory (a 150 MB log per session). Each script run therefore does for the sessions the
server no longer has, active or stored, what shutting them down would have done. It also takes
the expired sessions out of the store itself (the store would drop them only at its next write), shuts
them down and empties their session state: the first session's objects are frozen out of garbage
collection (:mod:`ui.shell.heap`), so its state would otherwise outlive it, upload and all.
"""

from __future__ import annotations

from contextlib import nullcontext

from streamlit.runtime import Runtime


def release() -> int:
    """Remove the uploads and media references of sessions the server no longer has; returns how many
    sessions'. Uses Streamlit's in-memory managers' tables (by session id); with others it does less."""
    if not Runtime.exists():
        return 0
    runtime = Runtime.instance()
    session_manager = getattr(runtime, "_session_mgr", None)
    if session_manager is None:
        return 0
    _drop_expired(session_manager)
    uploads, media = runtime.uploaded_file_mgr, runtime.media_file_mgr
    known = {*getattr(uploads, "file_storage", {}), *getattr(media, "_files_by_session_and_coord", {})}
    live = {info.session.id for info in session_manager.list_sessions()}
    gone = known - live
    for session_id in gone:
        uploads.remove_session_files(session_id)
        media.clear_session_refs(session_id)
        runtime.dataframe_source_mgr.clear_all_for_session(session_id)
    if gone:
        media.remove_orphaned_files()  # the files and deferred downloads no session refers to any more
    return len(gone)


def _drop_expired(session_manager) -> None:
    """Evict the expired sessions from the reconnect store, shut them down and empty their state."""
    cache = getattr(getattr(session_manager, "_session_storage", None), "_cache", None)
    if not hasattr(cache, "expire"):
        return
    with getattr(session_manager, "_storage_lock", None) or nullcontext():
        expired = cache.expire()
    for _, info in expired:
        info.session.shutdown()
        session_state = getattr(info.session, "_session_state", None)
        if session_state is not None:
            session_state.clear()
