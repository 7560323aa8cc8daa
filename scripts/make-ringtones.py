#!/usr/bin/env python3
"""Generates intercom's ringtones (our own; no third-party recordings).

Run from the repository root: python3 scripts/make-ringtones.py
Writes 16-bit mono 16 kHz WAVs into Resources/ringtones/.
"""
import math
import struct
import wave
from pathlib import Path

RATE = 16000
OUT = Path(__file__).resolve().parent.parent / "Resources" / "ringtones"


def tone(freqs, seconds, attack=0.01, decay=None, volume=0.45):
    """A sum of sines with a short attack and an optional exponential decay (a bell)."""
    n = int(seconds * RATE)
    samples = []
    for i in range(n):
        t = i / RATE
        env = min(1.0, t / attack)
        if decay:
            env *= math.exp(-t / decay)
        value = sum(math.sin(2 * math.pi * f * t) for f in freqs) / len(freqs)
        samples.append(volume * env * value)
    return samples


def silence(seconds):
    return [0.0] * int(seconds * RATE)


def write(name, samples):
    OUT.mkdir(parents=True, exist_ok=True)
    with wave.open(str(OUT / name), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1, min(1, s)) * 32767)) for s in samples))


# A door chime: ding (E5) – dong (C5), bell-like, then a pause; liblinphone loops the file.
chime = tone([659.25, 1318.5], 0.9, decay=0.35) + tone([523.25, 1046.5], 1.4, decay=0.5) + silence(1.2)
# A phone-like ring: 440 + 480 Hz, 1 s on, 2 s off.
classic = tone([440.0, 480.0], 1.0, attack=0.02) + silence(2.0)
write("chime.wav", chime)
write("classic.wav", classic)
print("wrote", ", ".join(sorted(p.name for p in OUT.glob("*.wav"))), "to", OUT)
