"""The Classroom's live room: joining (QR code, code, link), what the browser keeps, the question,
the teacher's view with the count and Reveal, the student's view on a phone.

May import common, picture, setup, share, c, charts and shell.
"""
