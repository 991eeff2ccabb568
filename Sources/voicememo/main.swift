import Foundation
import VoiceMemoCLI

exit(VoiceMemoCLI.main(CommandLine.arguments))
