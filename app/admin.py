"""Moderators, granted and revoked from the command line (app.moderation), on the database
DATABASE_URL names (the site's SQLite file by default):

    python -m app.admin grant NAME [--reason WHY]
    python -m app.admin revoke NAME [--reason WHY]

Each is written to the moderation audit, which /admin shows and can undo.
"""
from __future__ import annotations

import argparse
import sys

from app import moderation
from models.db import init_db


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m app.admin', description=__doc__.split('\n\n')[0])
    commands = parser.add_subparsers(dest='command', required=True)
    for name, what in (('grant', 'make the account a moderator'), ('revoke', 'make it an ordinary account again')):
        command = commands.add_parser(name, help=what)
        command.add_argument('name', help='the username')
        command.add_argument('--reason', default='', help='why, for the audit')
    arguments = parser.parse_args(argv)
    init_db()
    try:
        (moderation.grant if arguments.command == 'grant' else moderation.revoke)(arguments.name,
                                                                                  reason=arguments.reason)
    except LookupError:
        print(f'admin: there is no account {arguments.name!r}', file=sys.stderr)
        return 1
    print(f'{arguments.name} is {"a moderator" if arguments.command == "grant" else "no longer a moderator"}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
