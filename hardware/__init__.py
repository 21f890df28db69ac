"""Raspberry Pi board hardware: LEDs, buttons and sensors (optional extra `pi`)."""
