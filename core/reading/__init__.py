"""Untrusted input read safely, and the files a user names written safely.

The hardened YAML reader and its located nodes; bounded reading of regular files;
atomic writing that never follows a link.
"""
