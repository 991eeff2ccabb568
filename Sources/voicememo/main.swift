import VoiceMemoCLI

print("voicememo \(VoiceMemoCLI.version)")
print(VoiceMemoCLI.libraryVersions())
